import { analyticsEventBatchBody, analyticsEventBatchResponse } from "@latchkey/protocol/schemas";
import { defineRoute } from "../http/route.js";
import { storeAnalyticsEvents } from "../services/analytics-events.js";

/**
 * `POST /analytics/events/batch` (2.8.108): the page views and clicks a browser client records on its own,
 * for its signed-in user, which its client makes anonymous when nobody has signed in. The client sends
 * each batch once and only logs a failure.
 */
export const analyticsRoutes = [
  defineRoute({
    method: "post",
    path: "/analytics/events/batch",
    summary: "Record a batch of analytics events",
    description:
      "JSON, or the same JSON gzip-compressed as `application/octet-stream`. The events are kept for 30 days. " +
      "`session_replay_segment_id`, `batch_id` and `sent_at_ms` are checked but not kept.",
    tags: ["Analytics"],
    access: ["client", "server", "admin"],
    requiresUser: true,
    gzipJsonBody: true,
    request: { body: analyticsEventBatchBody },
    response: { description: "Stored.", schema: analyticsEventBatchResponse },
    handler: async (c, { auth, body }) => ({
      inserted: await storeAnalyticsEvents(c.get("deps").db, { projectId: auth.project.id, userId: auth.user!.id, events: body.events }),
    }),
  }),
];
