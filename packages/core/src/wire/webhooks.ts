/**
 * Webhook endpoints as the Svix-compatible API answers them (camelCase already: that API is Svix's, not the
 * Stack protocol's), with dates as Date.
 */
export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  disabled: boolean;
  /** Event types the endpoint receives; null: every type. */
  filterTypes: string[] | null;
  /** Which Stack SDK version's shapes its payloads carry (see WebhookPayloadVersion). */
  payloadVersion: WebhookPayloadVersion;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The protocol version whose shapes an endpoint's event payloads carry: `2.8.41` (the default, as Stack Auth sends
 * them) or `2.8.108`, for an app on that SDK (its user objects add `is_restricted`, `restricted_reason`,
 * `restricted_by_admin*`, `country_code` and `risk_scores`). Kept in the endpoint's Svix metadata under
 * WEBHOOK_PAYLOAD_VERSION_KEY.
 */
export type WebhookPayloadVersion = "2.8.41" | "2.8.108";
export const WEBHOOK_PAYLOAD_VERSIONS: readonly WebhookPayloadVersion[] = ["2.8.41", "2.8.108"];
export const WEBHOOK_PAYLOAD_VERSION_KEY = "latchkey_payload_version";

export interface WebhookEndpointCreate {
  url: string;
  description?: string;
  filterTypes?: string[];
  /** `2.8.41` when left out. */
  payloadVersion?: WebhookPayloadVersion;
}

export interface WebhookEndpointWire {
  id: string;
  url: string;
  description: string;
  disabled: boolean;
  filterTypes: string[] | null;
  metadata?: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

export function webhookEndpointFromWire(wire: WebhookEndpointWire): WebhookEndpoint {
  const version = wire.metadata?.[WEBHOOK_PAYLOAD_VERSION_KEY];
  return {
    id: wire.id,
    url: wire.url,
    description: wire.description,
    disabled: wire.disabled,
    filterTypes: wire.filterTypes,
    payloadVersion: version === "2.8.108" ? "2.8.108" : "2.8.41",
    createdAt: new Date(wire.createdAt),
    updatedAt: new Date(wire.updatedAt),
  };
}

/**
 * The endpoint's metadata with the payload version set: the other entries as they were, and none for the
 * default (an endpoint without the entry gets the 2.8.41 shapes).
 */
export function metadataWithPayloadVersion(metadata: Record<string, string>, version: WebhookPayloadVersion): Record<string, string> {
  const { [WEBHOOK_PAYLOAD_VERSION_KEY]: _replaced, ...others } = metadata;
  return version === "2.8.41" ? others : { ...others, [WEBHOOK_PAYLOAD_VERSION_KEY]: version };
}

/** A change to an endpoint; fields left out stay as they are. `filterTypes: null` lets every event type through. */
export interface WebhookEndpointUpdate {
  url?: string;
  description?: string;
  disabled?: boolean;
  filterTypes?: string[] | null;
  payloadVersion?: WebhookPayloadVersion;
}

/** An event type the server sends, with what it means (Svix's event type list). */
export interface WebhookEventType {
  name: string;
  description: string;
}

export interface WebhookEventTypeWire {
  name: string;
  description: string;
}

export const webhookEventTypeFromWire = (wire: WebhookEventTypeWire): WebhookEventType => ({ name: wire.name, description: wire.description });

/**
 * Where one message stands with one endpoint: delivered (`success`), waiting for its first attempt or a retry
 * (`pending`), given up after the last retry (`fail`), or being sent right now (`sending`).
 */
export type WebhookDeliveryStatus = "success" | "pending" | "fail" | "sending";

/** A message an endpoint was sent, with the state of its delivery there. */
export interface WebhookEndpointMessage {
  id: string;
  eventType: string;
  /** The event as the receiver gets it (`{ type, data }`). */
  payload: unknown;
  createdAt: Date;
  status: WebhookDeliveryStatus;
  /** When the next retry is due; null once delivered or failed, and while an attempt is in flight. */
  nextAttemptAt: Date | null;
}

export interface WebhookEndpointMessageWire {
  id: string;
  eventType: string;
  payload: unknown;
  timestamp: string;
  status: 0 | 1 | 2 | 3;
  statusText?: string;
  nextAttempt: string | null;
}

const DELIVERY_STATUSES: readonly WebhookDeliveryStatus[] = ["success", "pending", "fail", "sending"];

export function webhookEndpointMessageFromWire(wire: WebhookEndpointMessageWire): WebhookEndpointMessage {
  return {
    id: wire.id,
    eventType: wire.eventType,
    payload: wire.payload,
    createdAt: new Date(wire.timestamp),
    status: DELIVERY_STATUSES[wire.status] ?? "pending",
    nextAttemptAt: wire.nextAttempt === null ? null : new Date(wire.nextAttempt),
  };
}

/** One try at delivering a message to an endpoint, and what the receiver answered. */
export interface WebhookAttempt {
  id: string;
  messageId: string;
  endpointId: string;
  url: string;
  /** The receiver's answer status; 0 when there was no answer (refused, timed out). */
  responseStatusCode: number;
  /** The start of the receiver's answer body. */
  response: string;
  responseDurationMs: number;
  succeeded: boolean;
  attemptedAt: Date;
}

export interface WebhookAttemptWire {
  id: string;
  msgId: string;
  endpointId: string;
  url: string;
  response: string;
  responseStatusCode: number;
  responseDurationMs: number;
  status: number;
  timestamp: string;
}

export function webhookAttemptFromWire(wire: WebhookAttemptWire): WebhookAttempt {
  return {
    id: wire.id,
    messageId: wire.msgId,
    endpointId: wire.endpointId,
    url: wire.url,
    responseStatusCode: wire.responseStatusCode,
    response: wire.response,
    responseDurationMs: wire.responseDurationMs,
    succeeded: wire.status === 0,
    attemptedAt: new Date(wire.timestamp),
  };
}

/** Svix's error body: a code, and a sentence or (for validation) the problems by field. */
export interface SvixErrorWire {
  code: string;
  detail: string | { loc: string[]; msg: string }[];
}

/** The error body's problems in a sentence a person can read ("url: must be an http:// or https:// URL"). */
export function svixErrorMessage(body: SvixErrorWire): string {
  if (typeof body.detail === "string") return body.detail;
  return body.detail.map((problem) => `${problem.loc.filter((part) => part !== "body").join(".")}: ${problem.msg}`).join("; ");
}
