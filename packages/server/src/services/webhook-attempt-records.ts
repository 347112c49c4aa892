import { sql } from "kysely";
import type { Db } from "../db/connect.js";
import { DISABLE_AFTER_FAILING_DAYS, type DisabledEndpoint } from "./webhook-endpoint-health.js";

/**
 * The delivery worker's bookkeeping (services/webhook-delivery.ts), one statement per claimed batch (issue 18:
 * delivery keeps up with 500 events/s): every attempt of the batch recorded, every delivery moved on (succeeded,
 * due again later, or failed for good), and the endpoints' runs of failures noted. One statement is one
 * transaction: a batch is recorded whole or not at all, and a batch not recorded (the process died after
 * sending, the database was unreachable) stays claimed only until its lease runs out, then is sent again with the
 * same `webhook-id` (at least once).
 */

/** What one claimed delivery came to; `status` and `retryInMs` decided by the worker (its retry schedule). */
export interface AttemptRecord {
  messageId: string;
  endpointId: string;
  status: "pending" | "succeeded" | "failed";
  /** When `status` is pending: the wait before the next attempt. */
  retryInMs: number | null;
  responseStatus: number | null;
  responseBody: string;
  durationMs: number;
}

export type DeliveryKey = Pick<AttemptRecord, "messageId" | "endpointId">;

/**
 * In how many milliseconds the earliest pending delivery to an enabled endpoint is due (negative when overdue),
 * null when none is pending: read in due order, it stops at the first one found. Deliveries being sent show
 * their lease's end, which is later than any worker waits before looking again. Messages still to fan out
 * (migration 0028) are due now.
 */
export const nextDueInMs = sql<number | null>`(
  select case when exists (select 1 from webhook_messages where fan_out_pending) then 0::float8 else (
    select (extract(epoch from d.next_attempt_at - now()) * 1000)::float8
    from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id and not e.disabled
    where d.status = 'pending'
    order by d.next_attempt_at
    limit 1
  ) end
)`;

export interface RecordedBatch {
  /** The endpoints this batch disabled, for their admins' mail. */
  disabled: DisabledEndpoint[];
  /** `nextDueInMs` as the batch was recorded, the batch's own retries not counted (the worker knows them). */
  nextDueInMs: number | null;
}

const BODY_EXCERPT_CHARS = 1024;
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The first 1 KiB of an answer (or an error's message), as a text column can hold it: without NUL characters and
 * without the half of a surrogate pair the cut may leave. Either would make PostgreSQL refuse the statement, and
 * with it the whole batch's records.
 */
export function attemptExcerpt(text: string): string {
  return text.slice(0, BODY_EXCERPT_CHARS).replace(LONE_SURROGATE, "\uFFFD").replaceAll("\0", "");
}

/**
 * Records the attempts of the deliveries claimed with `claimToken`. A delivery whose claim is no longer ours
 * (its lease ran out and another worker took it, or it was resent meanwhile) is left alone, attempt included.
 * Per endpoint (Svix's rule, services/webhook-endpoint-health.ts): an answered attempt in the batch ends its run
 * of failures; a batch of failures starts one, or disables the endpoint once the run is 5 days old. Only state
 * changes write the endpoint row, so failures do not touch it (nor wake every process's cache of listening
 * projects) attempt after attempt. Also tells when the next delivery is due, which saves the worker a look.
 */
export async function recordAttempts(db: Db, claimToken: string, records: readonly AttemptRecord[]): Promise<RecordedBatch | undefined> {
  if (records.length === 0) return undefined;
  const rows = JSON.stringify(
    records.map((r) => ({
      message_id: r.messageId,
      endpoint_id: r.endpointId,
      status: r.status,
      retry_in_ms: r.retryInMs,
      response_status: r.responseStatus,
      response_body: attemptExcerpt(r.responseBody),
      duration_ms: Math.round(r.durationMs),
    })),
  );
  const failingFor = sql`make_interval(days => ${DISABLE_AFTER_FAILING_DAYS})`;
  const statement = sql<{ disabled: Array<{ id: string; project_id: string; url: string }> | string; next_due_ms: number | null }>`
    with outcome as (
      select * from jsonb_to_recordset(${rows}::jsonb)
        as o(message_id text, endpoint_id text, status text, retry_in_ms integer, response_status integer, response_body text, duration_ms integer)
    ), recorded as (
      update webhook_deliveries d
      set status = o.status,
          attempts = d.attempts + 1,
          claim_token = null,
          next_attempt_at = case when o.status = 'pending' then now() + make_interval(secs => o.retry_in_ms / 1000.0) end,
          last_attempt_at = now(),
          last_response_status = o.response_status,
          last_response_body = o.response_body,
          updated_at = now()
      from outcome o
      where d.message_id = o.message_id and d.endpoint_id = o.endpoint_id and d.claim_token = ${claimToken}::uuid
      returning d.message_id, d.endpoint_id, o.status
    ), attempts as (
      insert into webhook_attempts (message_id, endpoint_id, response_status, response_body, duration_ms)
      select o.message_id, o.endpoint_id, o.response_status, o.response_body, o.duration_ms
      from outcome o join recorded r on r.message_id = o.message_id and r.endpoint_id = o.endpoint_id
    ), by_endpoint as (
      select endpoint_id, bool_or(status = 'succeeded') as answered from recorded group by endpoint_id
    ), recovered as (
      update webhook_endpoints e set failing_since = null
      from by_endpoint b where e.id = b.endpoint_id and b.answered and e.failing_since is not null
    ), started_failing as (
      update webhook_endpoints e set failing_since = now()
      from by_endpoint b where e.id = b.endpoint_id and not b.answered and not e.disabled and e.failing_since is null
    ), disabled as (
      -- Disjoint from started_failing (failing_since set here, null there): no row is updated twice.
      update webhook_endpoints e set disabled = true, updated_at = now()
      from by_endpoint b where e.id = b.endpoint_id and not b.answered and not e.disabled and e.failing_since <= now() - ${failingFor}
      returning e.id, e.project_id, e.url
    )
    select (select coalesce(json_agg(json_build_object('id', id, 'project_id', project_id, 'url', url)), '[]') from disabled) as disabled,
      ${nextDueInMs} as next_due_ms`;
  // Two processes' batches touching the same endpoints may deadlock on those rows (rarely: only state changes
  // write them). The statement then did nothing, so it is run again.
  for (let attempt = 1; ; attempt++) {
    try {
      const row = (await statement.execute(db)).rows[0]!;
      const disabled = typeof row.disabled === "string" ? (JSON.parse(row.disabled) as Exclude<typeof row.disabled, string>) : row.disabled;
      return { disabled: disabled.map((e) => ({ id: e.id, projectId: e.project_id, url: e.url })), nextDueInMs: row.next_due_ms };
    } catch (error) {
      if (attempt >= 3 || (error as { code?: string }).code !== "40P01") throw error;
    }
  }
}

/** Deliveries interrupted by a shutdown: due again at once, for whichever process runs next, without an attempt counted. */
export async function handBackDeliveries(db: Db, claimToken: string, deliveries: readonly DeliveryKey[]): Promise<void> {
  if (deliveries.length === 0) return;
  const keys = JSON.stringify(deliveries.map((d) => ({ message_id: d.messageId, endpoint_id: d.endpointId })));
  await sql`
    update webhook_deliveries d
    set next_attempt_at = now(), claim_token = null
    from jsonb_to_recordset(${keys}::jsonb) as k(message_id text, endpoint_id text)
    where d.message_id = k.message_id and d.endpoint_id = k.endpoint_id and d.claim_token = ${claimToken}::uuid`.execute(db);
}
