import type { ColumnType } from "kysely";

/** Table types of webhooks (migrations/0023_webhooks.sql); part of `Database` in schema.ts. */

type Defaulted<T> = ColumnType<T, T | undefined, T>;
type Json = ColumnType<unknown, string, string>;

export interface WebhookEndpointsTable {
  id: string;
  project_id: string;
  url: string;
  description: Defaulted<string>;
  disabled: Defaulted<boolean>;
  filter_types: string[] | null;
  uid: string | null;
  metadata: ColumnType<Record<string, string>, string | undefined, string>;
  sealed_secret: Uint8Array;
  sealing_key_id: string;
  previous_sealed_secret: Uint8Array | null;
  previous_sealing_key_id: string | null;
  previous_secret_expires_at: Date | null;
  /** When the current run of failed attempts began; null after a success (migration 0024). */
  failing_since: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Headers sent with each delivery, names in lower case (migration 0026). */
  headers: ColumnType<Record<string, string>, string | undefined, string>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: Defaulted<Date>;
}

export interface WebhookMessagesTable {
  id: string;
  project_id: string;
  event_type: string;
  /** The 2.8.41 shape, as the reference sends it (issue 29). */
  payload: Json;
  /** The 2.8.108 shape where it differs from `payload` (migration 0033); null: the same. */
  payload_2_8_108: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: ColumnType<Date, Date | undefined, never>;
  /** Handing it to a real Svix server (migration 0026): when it is due; null when not to be (or done) forwarded. */
  forward_due_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  forward_attempts: Defaulted<number>;
  forwarded_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Its deliveries are still to be made by a delivery worker (migration 0028). */
  fan_out_pending: Defaulted<boolean>;
}

export interface WebhookDeliveriesTable {
  message_id: string;
  endpoint_id: string;
  status: Defaulted<"pending" | "succeeded" | "failed">;
  attempts: Defaulted<number>;
  next_attempt_at: Date | null;
  claim_token: string | null;
  last_attempt_at: Date | null;
  last_response_status: number | null;
  last_response_body: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: Defaulted<Date>;
}

export interface WebhookAttemptsTable {
  id: ColumnType<string, string | undefined, never>;
  message_id: string;
  endpoint_id: string;
  attempted_at: ColumnType<Date, Date | undefined, never>;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number;
}

export interface WebhookTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_messages: WebhookMessagesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
