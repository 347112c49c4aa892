import type { PGlite } from "@electric-sql/pglite";
import { sql } from "kysely";
import type pg from "pg";
import type { Logger } from "pino";
import { loadPg, type Db } from "./connect.js";

/**
 * The stream of `<kind>:<id>` change notifications the database sends on commit (migration 0008), which
 * keeps each server process's caches true to the database that all processes share.
 *
 * While the feed is not `live` (before the first LISTEN, after a lost connection until it is back) caches
 * must not serve: a notification may have been missed. On every (re)connection the feed says `reset`, so
 * caches drop everything they may have kept while it was down.
 *
 * `sync()` waits until every change committed before it was called has been delivered here: it sends a
 * notification of its own and waits for it to come back, and PostgreSQL delivers notifications in commit
 * order. A request that wrote calls it before answering, so its caller's next request, to this process,
 * cannot see a cached value older than its own write.
 */
export interface ChangeFeed {
  readonly live: boolean;
  /** `change` for one id, `reset` when every cached value may be stale. */
  subscribe(listener: ChangeListener): void;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export type ChangeListener = (event: { type: "change"; kind: string; id: string } | { type: "reset" }) => void;

export const CHANGES_CHANNEL = "latchkey_changes";
const SYNC_PREFIX = "sync:";
const SYNC_TIMEOUT_MS = 2_000;
const RECONNECT_DELAY_MS = 1_000;
// A connection can die without a word (a half-open TCP link to a remote database): the feed sends itself
// a notification every HEARTBEAT_MS and is not live unless one came back within the last HEARD_WITHIN_MS.
const HEARTBEAT_MS = 1_000;
const HEARD_WITHIN_MS = 3_000;
const RECONNECT_WHEN_DEAF_MS = 10_000;

/** Where notifications come from: a dedicated PostgreSQL connection, or the embedded PGlite itself. */
export type ChangeSource = { kind: "postgres"; url: string } | { kind: "pglite"; pglite: PGlite };

export async function openChangeFeed(db: Db, source: ChangeSource, log: Logger): Promise<ChangeFeed> {
  const feed = new Feed(db, log);
  if (source.kind === "pglite") {
    // One embedded database, one connection: LISTEN goes through Kysely so it never lands inside another
    // caller's transaction; PGlite hands every notification of that connection to onNotification.
    feed.attach(source.pglite.onNotification((channel, payload) => channel === CHANGES_CHANNEL && feed.deliver(payload)));
    await sql`listen latchkey_changes`.execute(db);
    feed.goLive();
  } else {
    await feed.connectPostgres(source.url);
  }
  return feed;
}

class Feed implements ChangeFeed {
  private connected = false;
  /** When a notification last arrived; only the PostgreSQL feed, whose connection can fail, needs it. */
  private lastHeard = Number.POSITIVE_INFINITY;
  private readonly listeners: ChangeListener[] = [];
  private readonly pendingSyncs = new Map<string, () => void>();
  private syncCounter = 0;
  private readonly instance = crypto.randomUUID();
  private client: pg.Client | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private url: string | undefined;
  private detach: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  get live(): boolean {
    return this.connected && Date.now() - this.lastHeard < HEARD_WITHIN_MS;
  }

  subscribe(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  attach(detach: () => void): void {
    this.detach = detach;
  }

  goLive(): void {
    this.emit({ type: "reset" });
    this.connected = true;
  }

  deliver(payload: string | undefined): void {
    if (!payload) return;
    if (this.client) {
      const now = Date.now();
      // Deaf for a while: what was cached before may have changed unheard.
      if (now - this.lastHeard >= HEARD_WITHIN_MS) this.emit({ type: "reset" });
      this.lastHeard = now;
    }
    if (payload.startsWith(SYNC_PREFIX)) {
      this.pendingSyncs.get(payload)?.();
      return;
    }
    const colon = payload.indexOf(":");
    if (colon > 0) this.emit({ type: "change", kind: payload.slice(0, colon), id: payload.slice(colon + 1) });
  }

  async connectPostgres(url: string): Promise<void> {
    this.url = url;
    const { pg } = await loadPg();
    const client = new pg.Client({ connectionString: url });
    client.on("notification", (message) => message.channel === CHANGES_CHANNEL && this.deliver(message.payload));
    client.on("error", (err) => this.lost(client, err));
    client.on("end", () => this.lost(client, new Error("connection ended")));
    await client.connect();
    await client.query(`listen ${CHANGES_CHANNEL}`);
    this.client = client;
    this.lastHeard = Date.now();
    this.goLive();
    this.heartbeat ??= setInterval(() => this.beat(), HEARTBEAT_MS).unref();
  }

  private beat(): void {
    const client = this.client;
    if (client && Date.now() - this.lastHeard > RECONNECT_WHEN_DEAF_MS) {
      this.lost(client, new Error(`no notification for ${RECONNECT_WHEN_DEAF_MS} ms`));
      return;
    }
    void this.sync();
  }

  /** The listening connection is gone: stop serving from caches until a new one listens. */
  private lost(client: pg.Client, err: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.connected = false;
    this.emit({ type: "reset" });
    if (this.closed) return;
    this.log.warn({ err }, "change feed connection lost; caches bypassed until it is back");
    client.end().catch(() => {});
    this.reconnectLater();
  }

  private reconnectLater(): void {
    const timer = setTimeout(() => {
      if (this.closed || !this.url) return;
      this.connectPostgres(this.url).catch((err) => {
        this.log.warn({ err }, "change feed reconnection failed");
        this.reconnectLater();
      });
    }, RECONNECT_DELAY_MS);
    timer.unref();
  }

  async sync(): Promise<void> {
    if (!this.connected) return;
    const token = `${SYNC_PREFIX}${this.instance}:${++this.syncCounter}`;
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      this.pendingSyncs.set(token, () => resolve(true));
      timer = setTimeout(() => resolve(false), SYNC_TIMEOUT_MS);
    });
    try {
      await sql`select pg_notify(${CHANGES_CHANNEL}, ${token})`.execute(this.db);
      if (!(await arrived) && this.connected) {
        // Notifications are late or lost: nothing cached can be trusted to be current.
        this.log.warn("change feed sync timed out; caches dropped");
        this.emit({ type: "reset" });
      }
    } catch (err) {
      // The database is unreachable: whatever was cached may have changed meanwhile.
      this.log.warn({ err }, "change feed sync failed; caches dropped");
      this.emit({ type: "reset" });
    } finally {
      clearTimeout(timer);
      this.pendingSyncs.delete(token);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connected = false;
    clearInterval(this.heartbeat);
    // Nothing waits on a feed that will hear nothing more.
    for (const release of this.pendingSyncs.values()) release();
    this.detach?.();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private emit(event: Parameters<ChangeListener>[0]): void {
    for (const listener of this.listeners) listener(event);
  }
}
