import type { DialectAdapter, Kysely } from "kysely";
import type { ChangeFeed } from "../db/change-feed.js";
import type { Db } from "../db/connect.js";
import { InvalidatingCache } from "./invalidating-cache.js";

/**
 * Per process, whether a project has an enabled webhook endpoint (issue 18), so a write in a project without
 * webhooks skips the outbox lookup (services/webhook-outbox.ts `webhooksListening`). Dropped on the change feed's
 * `webhook_endpoints:<project id>` (migration 0026's trigger: an endpoint created, deleted, enabled or disabled
 * in any process), and not served while the feed is down, like the other caches (cache/caches.ts). An endpoint
 * created in another process takes events once this process has heard of it — within milliseconds; a write
 * committed in that window sends nothing to it (as one whose lookup ran just before the endpoint's commit).
 *
 * The writes that ask run deep in services that get only a transaction. Kysely gives a database's transactions
 * (and its `withPlugin` copies) the database's own dialect adapter object, so the cache is found through that
 * — not through a plugin, which would run for every query.
 */

const byAdapter = new WeakMap<DialectAdapter, WebhookListeningCache>();

export class WebhookListeningCache {
  private readonly cache: InvalidatingCache<{ listening: boolean }>;

  /**
   * `handOff`: events go to a real Svix server (LATCHKEY_SVIX_URL, services/webhook-svix-forwarder.ts), which
   * knows the endpoints: every project listens, and the outbox's messages are written to be forwarded.
   */
  constructor(
    feed: ChangeFeed,
    readonly handOff = false,
  ) {
    this.cache = new InvalidatingCache(feed, { maxEntries: 10_000, ttlMs: 60_000 });
    feed.subscribe((event) => {
      if (event.type === "reset") this.cache.clear();
      else if (event.kind === "webhook_endpoints") this.cache.invalidate(event.id);
    });
  }

  async listening(projectId: string, lookup: () => Promise<boolean>): Promise<boolean> {
    if (this.handOff) return true;
    const entry = await this.cache.get(projectId, async () => ({ listening: await lookup() }));
    return entry!.listening;
  }

  get hits(): number {
    return this.cache.hits;
  }
}

/**
 * Serves `db` and its transactions from `cache` until the returned function is called. Two servers of one
 * JavaScript process on one database (a test's second "process") share the first one's cache; once that server
 * closes, the lookups run every time again (correct, only slower).
 */
export function attachWebhookListeningCache(db: Db, cache: WebhookListeningCache): () => void {
  const adapter = db.getExecutor().adapter;
  if (byAdapter.has(adapter)) return () => {};
  byAdapter.set(adapter, cache);
  return () => {
    if (byAdapter.get(adapter) === cache) byAdapter.delete(adapter);
  };
}

export function webhookListeningCacheOf(db: Kysely<any>): WebhookListeningCache | undefined {
  return byAdapter.get(db.getExecutor().adapter);
}
