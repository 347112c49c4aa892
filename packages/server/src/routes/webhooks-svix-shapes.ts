import type { EndpointRow } from "../services/webhook-endpoints.js";
import type { AttemptRow, MessageRow } from "../services/webhook-messages.js";

/** Svix's answer shapes (camelCase, as its API has them) of endpoints, messages and attempts, for the webhooks-svix*.ts routes. */

// Svix's MessageOut leaves `tags` out when the message has none (never null), as the reference's Svix server
// answers; Latchkey keeps no tags, so it is never there. `channels` and `eventId` are null when unset.

export function renderNewMessage(id: string, createdAt: Date, message: { eventType: string; payload: unknown; eventId?: string | null }, withContent: boolean) {
  return { id, eventType: message.eventType, payload: withContent ? message.payload : {}, timestamp: createdAt.toISOString(), channels: null, eventId: message.eventId ?? null };
}

export function renderMessage(message: Pick<MessageRow, "id" | "event_type" | "payload" | "created_at">, withContent: boolean) {
  const stored = typeof message.payload === "string" ? JSON.parse(message.payload) : message.payload;
  return { id: message.id, eventType: message.event_type, payload: withContent ? stored : {}, timestamp: message.created_at.toISOString(), channels: null, eventId: null };
}

export function renderAttempt(attempt: AttemptRow) {
  const succeeded = attempt.response_status !== null && attempt.response_status >= 200 && attempt.response_status < 300;
  return {
    id: attempt.id,
    msgId: attempt.message_id,
    endpointId: attempt.endpoint_id,
    url: attempt.url,
    response: attempt.response_body ?? "",
    // Svix reports 0 for an attempt that got no answer (refused, timed out).
    responseStatusCode: attempt.response_status ?? 0,
    responseDurationMs: attempt.duration_ms,
    status: succeeded ? 0 : 2,
    statusText: succeeded ? "success" : "fail",
    timestamp: attempt.attempted_at.toISOString(),
    triggerType: 0,
  };
}

/** Svix's EndpointOut: the endpoint's fields and its metadata. */
export function renderEndpoint(endpoint: EndpointRow) {
  return { ...renderEndpointFields(endpoint), metadata: endpoint.metadata };
}

/** The fields Svix's EndpointOut and MessageEndpointOut share; the latter has no `metadata`. */
export function renderEndpointFields(endpoint: EndpointRow) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    disabled: endpoint.disabled,
    filterTypes: endpoint.filter_types,
    channels: null,
    uid: endpoint.uid,
    version: 1,
    rateLimit: null,
    throttleRate: null,
    createdAt: endpoint.created_at.toISOString(),
    updatedAt: endpoint.updated_at.toISOString(),
  };
}
