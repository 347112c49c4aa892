import { z } from "zod";
import { uuid } from "./ids.js";

/**
 * Wire shapes of `POST /analytics/events/batch` (2.8.108): the page views and clicks a browser client
 * records on its own and sends every few seconds, as JSON or gzip-compressed JSON.
 */

/** More than a client ever sends at once (2.8.108 flushes at 50 events or about 64 kB). */
export const ANALYTICS_MAX_EVENTS_PER_BATCH = 500;
/** The latest instant PostgreSQL and JavaScript dates share, in ms since the epoch. */
const MAX_TIME_MS = 8.64e15;

export const analyticsEvent = z.strictObject({
  /** `$page-view` and `$click` from the client library; any name an app may track. */
  event_type: z.string().min(1).max(100),
  event_at_ms: z.number().int().min(0).max(MAX_TIME_MS),
  data: z.record(z.string(), z.unknown()),
});
export type AnalyticsEvent = z.infer<typeof analyticsEvent>;

export const analyticsEventBatchBody = z.strictObject({
  /** Names the page session the events come from (also the session-replay segment, when replays are on). */
  session_replay_segment_id: uuid,
  batch_id: uuid,
  sent_at_ms: z.number(),
  events: z.array(analyticsEvent).max(ANALYTICS_MAX_EVENTS_PER_BATCH),
});
export type AnalyticsEventBatchBody = z.infer<typeof analyticsEventBatchBody>;

/** How many events were stored. (The client only looks at the status.) */
export const analyticsEventBatchResponse = z.strictObject({ inserted: z.number().int() });
export type AnalyticsEventBatchResponse = z.infer<typeof analyticsEventBatchResponse>;
