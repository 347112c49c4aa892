import { AsyncLocalStorage } from "node:async_hooks";
import { PostgresDriver, TransactionBuilder } from "kysely";

/**
 * Embedded PGlite is one connection (db/pglite-dialect.ts): while a transaction holds it, any other query waits until
 * the transaction ends. Code inside a transaction's callback that awaits a query on the database itself (not on the
 * transaction) waits forever on PGlite, while on PostgreSQL, with a pool of connections, it works.
 *
 * The server suite's API files run against PostgreSQL only, when one is given (vite.config.ts), so there this check
 * gives test servers PGlite's rule: a connection asked for from code a transaction's callback started waits until that
 * transaction has ended — at once for work left to run in the background (the key ring's reload), forever for a
 * query the callback awaits, which fails with where the query and the transaction began once the transaction has
 * not ended within 30 s (a transaction of the suite takes milliseconds). AsyncLocalStorage marks the code a
 * callback runs: test servers only, never the product, whose hot paths avoid its promise hooks (bench/README.md).
 */
interface OpenTransaction {
  readonly startedAt: string;
  readonly ended: Promise<void>;
}

let waitLimitMs = 30_000;
const insideTransaction = new AsyncLocalStorage<OpenTransaction>();
const refusals: string[] = [];
const INSTALLED = Symbol.for("latchkey.test.oneConnectionCheck");

export function installOneConnectionCheck(): void {
  const holder = globalThis as { [INSTALLED]?: true };
  if (holder[INSTALLED]) return;
  holder[INSTALLED] = true;

  const execute = TransactionBuilder.prototype.execute;
  TransactionBuilder.prototype.execute = async function (this: TransactionBuilder<any>, callback: (trx: any) => Promise<any>) {
    let end!: () => void;
    const open: OpenTransaction = { startedAt: new Error("the transaction began here").stack ?? "", ended: new Promise<void>((resolve) => (end = resolve)) };
    try {
      return await execute.call(this, (trx) => insideTransaction.run(open, () => callback(trx)));
    } finally {
      end();
    }
  } as typeof execute;

  const acquire = PostgresDriver.prototype.acquireConnection;
  PostgresDriver.prototype.acquireConnection = async function (this: PostgresDriver) {
    const open = insideTransaction.getStore();
    if (open) await waitForEnd(open, new Error("the query").stack ?? "");
    return acquire.call(this);
  };
}

async function waitForEnd(open: OpenTransaction, queriedAt: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<"stuck">((resolve) => (timer = setTimeout(() => resolve("stuck"), waitLimitMs)));
  const outcome = await Promise.race([open.ended, limit]);
  clearTimeout(timer);
  if (outcome !== "stuck") return;
  const message = `a query on the database awaited from inside an open transaction's callback (use the transaction): on PGlite, one connection, it waits forever\n${queriedAt}\n${open.startedAt}`;
  refusals.push(message);
  throw new Error(message);
}

/** Runs `work` as if outside any transaction: for a test that holds a transaction open on purpose while it writes on another connection (PostgreSQL only). */
export function onAnotherConnection<T>(work: () => T): T {
  return insideTransaction.exit(work);
}

/** Sets how long a query waits for its transaction before it fails (the check's own test); returns the previous limit. */
export function setOneConnectionWaitLimit(ms: number): number {
  const previous = waitLimitMs;
  waitLimitMs = ms;
  return previous;
}

/** The queries refused since the last call (and forgets them). */
export function takeOneConnectionRefusals(): string[] {
  return refusals.splice(0);
}
