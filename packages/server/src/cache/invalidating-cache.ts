import type { ChangeFeed } from "../db/change-feed.js";
import { deepFreeze } from "../deep-freeze.js";

/**
 * A bounded in-memory cache in front of database reads, kept current by the change feed: entries are
 * dropped when the feed says their rows changed, and nothing is served or stored while the feed is down.
 *
 * A read racing a change must not store what it read before the change: each load registers itself, an
 * invalidation of its key (or of everything) while it runs marks it stale, and a stale load's value is
 * returned to its caller but never stored. Values are frozen because every request shares them.
 */
export class InvalidatingCache<V extends object> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private readonly loads = new Map<string, Set<{ stale: boolean }>>();
  /** Reads answered from memory, and reads that went to the database (for `/metrics`' hit rate). */
  hits = 0;
  misses = 0;

  constructor(
    private readonly feed: Pick<ChangeFeed, "live">,
    private readonly options: { maxEntries: number; ttlMs: number },
  ) {}

  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    if (!this.feed.live) {
      this.misses++;
      return load();
    }
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > Date.now()) {
      this.hits++;
      return entry.value;
    }
    this.misses++;
    const ticket = { stale: false };
    let tickets = this.loads.get(key);
    if (!tickets) this.loads.set(key, (tickets = new Set()));
    tickets.add(ticket);
    try {
      const value = await load();
      if (value !== undefined && !ticket.stale && this.feed.live) this.store(key, deepFreeze(value));
      return value;
    } finally {
      tickets.delete(ticket);
      if (tickets.size === 0 && this.loads.get(key) === tickets) this.loads.delete(key);
    }
  }

  invalidate(key: string): void {
    this.entries.delete(key);
    for (const ticket of this.loads.get(key) ?? []) ticket.stale = true;
  }

  /** Drops every entry whose value matches; loads in flight are all marked stale (their value is unknown). */
  invalidateWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
    this.markAllLoadsStale();
  }

  clear(): void {
    this.entries.clear();
    this.markAllLoadsStale();
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: Date.now() + this.options.ttlMs });
    // Maps iterate in insertion order: the first key is the least recently stored.
    if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  private markAllLoadsStale(): void {
    for (const tickets of this.loads.values()) for (const ticket of tickets) ticket.stale = true;
  }
}
