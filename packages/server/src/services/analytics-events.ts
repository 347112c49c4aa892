import type { AnalyticsEvent } from "@latchkey/protocol/schemas";
import { sql } from "kysely";
import type { Db } from "../db/connect.js";

/**
 * Analytics events (2.8.108 clients send page views and clicks on their own, `POST /analytics/events/batch`):
 * stored with who sent them, for ANALYTICS_RETENTION_MS, and nothing is computed from them yet.
 *
 * Retention is opportunistic rather than a timer: each stored batch deletes up to ANALYTICS_SWEEP_BATCH of the
 * oldest expired rows (of any project). That is more than a batch adds, so the table never holds much beyond
 * the retention period while events keep coming; and when they stop, it does not grow either.
 */

export const ANALYTICS_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
export const ANALYTICS_SWEEP_BATCH = 1000;

export async function storeAnalyticsEvents(db: Db, input: { projectId: string; userId: string; events: readonly AnalyticsEvent[] }): Promise<number> {
  if (input.events.length > 0) {
    await db
      .insertInto("analytics_events")
      .values(
        input.events.map((event) => ({
          project_id: input.projectId,
          user_id: input.userId,
          event_type: event.event_type,
          event_at: new Date(event.event_at_ms),
          data: JSON.stringify(event.data),
        })),
      )
      .execute();
  }
  await deleteExpiredAnalyticsEvents(db);
  return input.events.length;
}

/**
 * Deletes up to `limit` events stored before `now - retention`; the rows are locked with SKIP LOCKED, so
 * concurrent requests split the work instead of waiting on each other. Returns how many were deleted.
 */
export async function deleteExpiredAnalyticsEvents(db: Db, options: { now?: Date; limit?: number } = {}): Promise<number> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - ANALYTICS_RETENTION_MS);
  const result = await sql`
    delete from analytics_events
    where id in (
      select id from analytics_events
      where created_at < ${cutoff}
      order by created_at
      limit ${options.limit ?? ANALYTICS_SWEEP_BATCH}
      for update skip locked
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
