import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from "kysely";
import type { Db } from "./connect.js";
import { mayAnnounceChange } from "./announced-writes.js";

/**
 * What the database layer knows of the request it runs queries for, carried by a plugin on the request's own
 * Kysely instance (`scopedToRequest`): transactions started from that instance carry it too.
 * - Whether the request wrote rows that caches are built from: such a request waits for the change feed
 *   (db/change-feed.ts) before it answers, so the caller's next request never meets a cache entry older than
 *   that write. Requests that only read (the hot paths: `/users/me`, most refreshes), or wrote only rows no
 *   cache holds (a new session, a failed attempt counted), pay nothing.
 * - Facts about the request that services deep inside need and nothing passes down (the device a session is
 *   made from, services/session-device.ts).
 * Not AsyncLocalStorage: on Node 20 its promise hooks run for every promise of the process once it is used,
 * about a tenth of the CPU of `/users/me` (bench/README.md).
 */
export class RequestScope<Facts = unknown> implements KyselyPlugin {
  /** Whether a query of the request may have sent change notifications (db/announced-writes.ts). */
  announcedChanges = false;

  constructor(readonly facts: Facts) {}

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (!this.announcedChanges && mayAnnounceChange(node)) this.announcedChanges = true;
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

/** The database as one request uses it: every query it runs (transactions included) is seen by `scope`. */
export function scopedToRequest<Facts>(db: Db, facts: Facts): { db: Db; scope: RequestScope<Facts> } {
  const scope = new RequestScope(facts);
  return { db: db.withPlugin(scope), scope };
}

/** The scope of the request a database instance (or a transaction of it) runs for; none outside requests. */
export function requestScopeOf(db: Kysely<any>): RequestScope | undefined {
  for (const plugin of db.getExecutor().plugins) if (plugin instanceof RequestScope) return plugin;
  return undefined;
}
