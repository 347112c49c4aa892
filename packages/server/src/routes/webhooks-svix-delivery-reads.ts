import type { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../http/context.js";
import { findAttempt, listEndpointMessages, listMessageEndpoints, type DeliveryState } from "../services/webhook-delivery-reads.js";
import { findEndpoint } from "../services/webhook-endpoints.js";
import { findMessage } from "../services/webhook-messages.js";
import { authorisedProject, messageFilterFields, notFound, pageFields, parsed } from "./webhooks-svix-shared.js";
import { renderAttempt, renderEndpointFields, renderMessage } from "./webhooks-svix-shapes.js";

/**
 * The Svix-compatible API's delivery reads (the official client's `messageAttempt.listAttemptedMessages`,
 * `listAttemptedDestinations` and `get`): the messages an endpoint was sent and the endpoints a message was sent
 * to, each with the delivery's state, and one attempt. Same token, answer and error shapes as routes/webhooks-svix.ts.
 */

const STATUS_TEXT = ["success", "pending", "fail", "sending"] as const;
const deliveryState = (row: DeliveryState) => ({ status: row.delivery_status, statusText: STATUS_TEXT[row.delivery_status], nextAttempt: row.next_attempt_at?.toISOString() ?? null });

const endpointMessagesQuery = z.object({
  ...pageFields,
  status: z.coerce.number().int().min(0).max(4).optional(),
  ...messageFilterFields,
  // Accepted and ignored: Latchkey has no channels or tags, and always gives the expanded statuses.
  channel: z.string().optional(),
  tag: z.string().optional(),
  expanded_statuses: z.enum(["true", "false"]).optional(),
});
const pageQuery = z.object(pageFields);

export function svixDeliveryReads(svix: Hono<AppEnv>): void {
  svix.get("/api/v1/app/:app_id/endpoint/:endpoint_id/msg", async (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const { db } = c.get("deps");
    const endpoint = await findEndpoint(db, auth.projectId, c.req.param("endpoint_id"));
    if (!endpoint) return notFound(c);
    const query = parsed(c, endpointMessagesQuery, c.req.query());
    if ("error" in query) return query.error;
    const { limit, iterator, status, event_types, before, after, with_content } = query.data;
    const { messages, done } = await listEndpointMessages(db, endpoint.id, { limit, iterator, status, eventTypes: event_types, before, after });
    // Svix's EndpointMessageOut: a MessageOut (no `deliverAt`, no `tags`, as there) and the delivery's state.
    const data = messages.map((row) => ({ ...renderMessage(row, with_content), ...deliveryState(row) }));
    return c.json({ data, iterator: messages.at(-1)?.id ?? null, prevIterator: null, done });
  });

  svix.get("/api/v1/app/:app_id/msg/:msg_id/endpoint", async (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const { db } = c.get("deps");
    const message = await findMessage(db, auth.projectId, c.req.param("msg_id"));
    if (!message) return notFound(c);
    const query = parsed(c, pageQuery, c.req.query());
    if ("error" in query) return query.error;
    const { endpoints, done } = await listMessageEndpoints(db, auth.projectId, message.id, query.data);
    // Svix's MessageEndpointOut: the endpoint without its metadata, and the delivery's state.
    const data = endpoints.map((row) => ({ ...renderEndpointFields(row), ...deliveryState(row) }));
    return c.json({ data, iterator: endpoints.at(-1)?.id ?? null, prevIterator: null, done });
  });

  svix.get("/api/v1/app/:app_id/msg/:msg_id/attempt/:attempt_id", async (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const attempt = await findAttempt(c.get("deps").db, auth.projectId, c.req.param("msg_id"), c.req.param("attempt_id"));
    return attempt ? c.json(renderAttempt(attempt)) : notFound(c);
  });
}
