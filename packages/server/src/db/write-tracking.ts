import { AsyncLocalStorage } from "node:async_hooks";
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from "kysely";

/**
 * Which requests wrote to the database. The request pipeline runs each request inside `trackWrites`;
 * a request that wrote waits for the change feed (db/change-feed.ts) before it answers, so the caller's
 * next request never meets a cache entry older than that write. Requests that only read (the hot paths:
 * `/users/me`, most refreshes) pay nothing.
 */
const currentRequest = new AsyncLocalStorage<{ wrote: boolean }>();

export async function trackWrites<T>(run: () => Promise<T>): Promise<{ result: T; wrote: boolean }> {
  const state = { wrote: false };
  const result = await currentRequest.run(state, run);
  return { result, wrote: state.wrote };
}

const WRITE_NODES = new Set<RootOperationNode["kind"]>(["InsertQueryNode", "UpdateQueryNode", "DeleteQueryNode", "MergeQueryNode"]);

function isWrite(node: RootOperationNode): boolean {
  if (WRITE_NODES.has(node.kind)) return true;
  // Raw SQL: anything but a plain read counts (a CTE may hide a write behind `with`).
  if (node.kind === "RawNode") return !/^\s*select\b/i.test(node.sqlFragments.join("?"));
  return false;
}

/** Marks the current request as having written when it runs an INSERT, UPDATE, DELETE or MERGE. */
export class WriteTrackingPlugin implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    const request = currentRequest.getStore();
    if (request && !request.wrote && isWrite(node)) request.wrote = true;
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}
