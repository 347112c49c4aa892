import { sql, type DialectAdapter, type Kysely } from "kysely";
import type { Logger } from "pino";
import type { Db } from "../db/connect.js";
import { requestScopeOf } from "../db/request-scope.js";
import { currentUtcDay } from "./user-activity.js";

/**
 * Every access token given to a user is activity, as the reference records an activity event with each one: the
 * day counts the user as active, `last_token_at` orders `recently_active`, and the request's country (from a
 * trusted proxy) is the user's latest (migrations/0032_*.sql, `GET /internal/metrics`).
 *
 * Sign-ins and refreshes are the hot paths (bench/): a refresh usually runs no query at all. So a token is noted in
 * memory and each server process writes what it noted once a second, in one statement for all users; the metrics
 * route writes the process's notes before reading. A process that dies loses at most its last second of activity.
 * The notes are found through the database's dialect adapter (shared by its `withPlugin` copies, as the webhook
 * listening cache finds its own), so the request-scoped database of any request reaches the process's notes.
 */

const FLUSH_INTERVAL_MS = 1_000;
/** Notes held at most between two writes (one per user and day); more start a write at once. */
const MAX_NOTES = 10_000;

interface Note {
  projectId: string;
  userId: string;
  day: string;
  at: Date;
  country: string | null;
}

/** What the request pipeline puts in each request's database scope for the activity recorded here. */
export interface RequestActivityFacts {
  /** The country a trusted proxy reports for the request (http/client-ip.ts), worked out on first use. */
  activityCountry: () => string | undefined;
}

class TokenActivityNotes {
  private notes = new Map<string, Note>();
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  /** Notes a token given now; a user's later tokens of the day update the day's note in place (a refresh makes no new object). */
  add(projectId: string, userId: string, country: string | null): void {
    const day = currentUtcDay();
    const key = `${userId}|${day}`;
    const earlier = this.notes.get(key);
    if (earlier) {
      earlier.at = new Date();
      if (country !== null) earlier.country = country;
      return;
    }
    this.notes.set(key, { projectId, userId, day, at: new Date(), country });
    if (this.notes.size >= MAX_NOTES) void this.flush();
  }

  /** Writes the notes taken so far; resolves once they (and any write under way) are in the database. */
  flush(): Promise<void> {
    const notes = [...this.notes.values()];
    this.notes = new Map();
    this.writing = this.writing.then(async () => {
      if (notes.length === 0) return;
      try {
        await writeNotes(this.db, notes);
      } catch (error) {
        // A user deleted between the join and the write fails the whole statement; once more finds it gone.
        await writeNotes(this.db, notes).catch((again: unknown) => this.log.warn({ err: again, first: error, users: notes.length }, "token activity not recorded"));
      }
    });
    return this.writing;
  }
}

const byAdapter = new WeakMap<DialectAdapter, TokenActivityNotes>();

/**
 * Starts this process's notes for `db` (server.ts) and their writer; `stop` writes what is left. A second server on
 * the same database object in one process (tests) shares the first one's notes.
 */
export function startTokenActivity(db: Db, log: Logger): { stop(): Promise<void> } {
  const adapter = db.getExecutor().adapter;
  const existing = byAdapter.get(adapter);
  if (existing) return { stop: () => existing.flush() };
  const notes = new TokenActivityNotes(db, log);
  byAdapter.set(adapter, notes);
  const timer = setInterval(() => void notes.flush(), FLUSH_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      byAdapter.delete(adapter);
      await notes.flush();
    },
  };
}

/**
 * Records that `userId` was given an access token now, from the request's country. Taken as a note when the process
 * keeps notes for this database; written at once otherwise (services used outside a server).
 */
export async function noteAccessToken(db: Kysely<any>, token: { projectId: string; userId: string }): Promise<void> {
  const facts = requestScopeOf(db)?.facts as Partial<RequestActivityFacts> | undefined;
  const country = facts?.activityCountry?.() ?? null;
  const notes = byAdapter.get(db.getExecutor().adapter);
  if (notes) notes.add(token.projectId, token.userId, country);
  else await writeNotes(db as Db, [{ projectId: token.projectId, userId: token.userId, day: currentUtcDay(), at: new Date(), country }]);
}

/** Writes the process's notes for `db` before a read that must see them (`GET /internal/metrics`). */
export async function flushTokenActivity(db: Kysely<any>): Promise<void> {
  await byAdapter.get(db.getExecutor().adapter)?.flush();
}

/** One upsert for every note: a user deleted since is left out by the join (a missing user would fail the insert). */
async function writeNotes(db: Db, notes: readonly Note[]): Promise<void> {
  const rows = sql.join(notes.map((n) => sql`(${n.projectId}, ${n.userId}::uuid, ${n.day}::date, ${n.country}, ${n.at}::timestamptz)`));
  await sql`
    insert into user_activity_days (project_id, user_id, day, country_code, last_token_at)
    select v.project_id, v.user_id, v.day, v.country_code, v.last_token_at
    from (values ${rows}) as v (project_id, user_id, day, country_code, last_token_at)
    join users u on u.id = v.user_id
    on conflict (user_id, day) do update set
      last_token_at = greatest(user_activity_days.last_token_at, excluded.last_token_at),
      -- The latest known country is the user's: a token without one leaves the day's as it was.
      country_code = coalesce(excluded.country_code, user_activity_days.country_code)
  `.execute(db);
}
