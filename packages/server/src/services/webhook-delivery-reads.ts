import { sql, type SqlBool } from "kysely";
import type { Db } from "../db/connect.js";
import type { EndpointRow } from "./webhook-endpoints.js";
import { payloadForEndpoint } from "./webhook-payload-versions.js";
import type { AttemptRow, MessageRow } from "./webhook-messages.js";

/**
 * Deliveries (one message to one endpoint) as Svix lists them (issue 18; routes/webhooks-svix-delivery-reads.ts):
 * the messages an endpoint was sent, the endpoints a message was sent to, each with its state; and one attempt.
 */

/** Svix's MessageStatus of a delivery: 0 success, 1 pending (also waiting for a retry), 2 fail, 3 sending. */
export type DeliveryStatus = 0 | 1 | 2 | 3;

// A claim is a lease running until next_attempt_at (services/webhook-delivery.ts): a claimed row is in flight.
const statusSql = sql<DeliveryStatus>`(case d.status when 'succeeded' then 0 when 'failed' then 2 else case when d.claim_token is not null and d.next_attempt_at > now() then 3 else 1 end end)`;

export interface DeliveryState {
  delivery_status: DeliveryStatus;
  /** When the next attempt is due; null once succeeded or failed, and while one is in flight. */
  next_attempt_at: Date | null;
}

/** A message sent to an endpoint; its payload in the shapes that endpoint is sent (services/webhook-payload-versions.ts). */
export interface EndpointMessageRow extends Pick<MessageRow, "id" | "event_type" | "payload" | "created_at">, DeliveryState {}

/** The messages sent to an endpoint, newest first; `iterator` is the last message id of the previous page. */
export async function listEndpointMessages(
  db: Db,
  endpointId: string,
  options: { limit: number; iterator?: string; status?: number; eventTypes?: string[]; before?: Date; after?: Date },
): Promise<{ messages: EndpointMessageRow[]; done: boolean }> {
  let query = db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_messages as m", "m.id", "d.message_id")
    .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
    .select(["m.id", "m.event_type", "m.created_at", payloadForEndpoint("m", "e").as("payload")])
    .select([statusSql.as("delivery_status"), sql<Date | null>`case when d.status = 'pending' and d.claim_token is null then d.next_attempt_at end`.as("next_attempt_at")])
    .where("d.endpoint_id", "=", endpointId);
  if (options.status !== undefined) query = query.where(sql<SqlBool>`${statusSql} = ${options.status}`);
  if (options.eventTypes?.length) query = query.where("m.event_type", "in", options.eventTypes);
  if (options.before) query = query.where("m.created_at", "<", options.before);
  if (options.after) query = query.where("m.created_at", ">", options.after);
  if (options.iterator) {
    // The anchor's position is read in SQL: a microsecond timestamp would not survive a JavaScript Date.
    query = query.where(sql<SqlBool>`(m.created_at, m.id) < (select a.created_at, a.id from webhook_messages a where a.id = ${options.iterator})`);
  }
  const rows = await query.orderBy("m.created_at", "desc").orderBy("m.id", "desc").limit(options.limit + 1).execute();
  return { messages: rows.slice(0, options.limit), done: rows.length <= options.limit };
}

export interface MessageEndpointRow extends EndpointRow, DeliveryState {}

/** The endpoints a message of the project was sent to, by endpoint id; `iterator` is the last endpoint id. */
export async function listMessageEndpoints(db: Db, projectId: string, messageId: string, options: { limit: number; iterator?: string }): Promise<{ endpoints: MessageEndpointRow[]; done: boolean }> {
  let query = db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
    .selectAll("e")
    .select([statusSql.as("delivery_status"), sql<Date | null>`case when d.status = 'pending' and d.claim_token is null then d.next_attempt_at end`.as("next_attempt_at")])
    .where("d.message_id", "=", messageId)
    .where("e.project_id", "=", projectId);
  if (options.iterator) query = query.where("e.id", ">", options.iterator);
  const rows = await query.orderBy("e.id").limit(options.limit + 1).execute();
  return { endpoints: rows.slice(0, options.limit), done: rows.length <= options.limit };
}

/** One attempt of a message of the project, by id. */
export async function findAttempt(db: Db, projectId: string, messageId: string, attemptId: string): Promise<AttemptRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(attemptId)) return undefined;
  return db
    .selectFrom("webhook_attempts as a")
    .innerJoin("webhook_endpoints as e", "e.id", "a.endpoint_id")
    .select(["a.id", "a.message_id", "a.endpoint_id", "a.attempted_at", "a.response_status", "a.response_body", "a.duration_ms", "e.url"])
    .where("e.project_id", "=", projectId)
    .where("a.message_id", "=", messageId)
    .where("a.id", "=", attemptId)
    .executeTakeFirst();
}

/** The webhook work waiting in the database, by state (for `/metrics`); every process sees the same queue. */
export interface WebhookQueue {
  /** Events whose deliveries a worker has yet to make (migration 0028). */
  awaiting_fan_out: number;
  /** Deliveries to enabled endpoints due now. */
  due: number;
  /** Deliveries being sent (claimed by a worker). */
  sending: number;
  /** Deliveries waiting for their next attempt. */
  retrying: number;
  /** Deliveries waiting for their disabled endpoint to be enabled again. */
  held: number;
}

export async function webhookQueue(db: Db): Promise<WebhookQueue> {
  const { rows } = await sql<WebhookQueue>`
    select
      (select count(*) from webhook_messages where fan_out_pending)::int as awaiting_fan_out,
      (count(*) filter (where not e.disabled and d.next_attempt_at <= now()))::int as due,
      (count(*) filter (where not e.disabled and d.next_attempt_at > now() and d.claim_token is not null))::int as sending,
      (count(*) filter (where not e.disabled and d.next_attempt_at > now() and d.claim_token is null))::int as retrying,
      (count(*) filter (where e.disabled))::int as held
    from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
    where d.status = 'pending'`.execute(db);
  return rows[0]!;
}
