import { sql } from "kysely";
import type { Db } from "../db/connect.js";

/**
 * An endpoint's deliveries as a whole, for the Svix-compatible API (routes/webhooks-svix-endpoint-ops.ts): how
 * many are in each state (Svix's endpoint stats), sending the failed ones again (Svix's "recover", used after a
 * receiver was fixed) and sending the messages it never got (Svix's "replay missing": written while it was
 * disabled, or before it existed). Windows are on the message's creation time, as in Svix.
 */

export interface TimeWindow {
  since?: Date;
  until?: Date;
}

/** Svix's EndpointStats: a message waiting for a retry counts as pending; one in flight as sending. */
export interface EndpointStats {
  success: number;
  fail: number;
  pending: number;
  sending: number;
  canceled: number;
}

const inWindow = (column: string, window: TimeWindow) =>
  sql`(${window.since ?? null}::timestamptz is null or ${sql.ref(column)} >= ${window.since ?? null}) and (${window.until ?? null}::timestamptz is null or ${sql.ref(column)} < ${window.until ?? null})`;

export async function endpointStats(db: Db, endpointId: string, window: TimeWindow): Promise<EndpointStats> {
  const { rows } = await sql<{ success: number; fail: number; pending: number; sending: number }>`
    select
      count(*) filter (where d.status = 'succeeded')::int as success,
      count(*) filter (where d.status = 'failed')::int as fail,
      -- A claim is a lease running until next_attempt_at (services/webhook-delivery.ts).
      count(*) filter (where d.status = 'pending' and d.claim_token is not null and d.next_attempt_at > now())::int as sending,
      count(*) filter (where d.status = 'pending' and not (d.claim_token is not null and d.next_attempt_at > now()))::int as pending
    from webhook_deliveries d join webhook_messages m on m.id = d.message_id
    where d.endpoint_id = ${endpointId} and ${inWindow("m.created_at", window)}`.execute(db);
  const row = rows[0]!;
  // Latchkey never cancels a delivery.
  return { success: row.success, fail: row.fail, pending: row.pending, sending: row.sending, canceled: 0 };
}

/** Makes the endpoint's failed deliveries in the window due now (one more attempt each, as a resend); how many. */
export async function recoverFailedDeliveries(db: Db, endpointId: string, window: TimeWindow): Promise<number> {
  const result = await sql`
    update webhook_deliveries d
    set status = 'pending', next_attempt_at = now(), claim_token = null, updated_at = now()
    from webhook_messages m
    where m.id = d.message_id and d.endpoint_id = ${endpointId} and d.status = 'failed' and ${inWindow("m.created_at", window)}`.execute(db);
  const count = Number(result.numAffectedRows ?? 0);
  if (count > 0) await wakeWorkers(db);
  return count;
}

/**
 * Gives the endpoint a delivery of each message of its project in the window that it takes (its event type
 * filter) and never had one of; how many. An example sent to another endpoint counts as such a message, as
 * nothing marks it apart from the app's own messages.
 */
export async function replayMissingMessages(db: Db, projectId: string, endpointId: string, window: TimeWindow): Promise<number> {
  const result = await sql`
    insert into webhook_deliveries (message_id, endpoint_id, next_attempt_at)
    select m.id, e.id, now()
    from webhook_messages m join webhook_endpoints e on e.id = ${endpointId} and e.project_id = m.project_id
    where m.project_id = ${projectId} and ${inWindow("m.created_at", window)}
      and (e.filter_types is null or m.event_type = any(e.filter_types))
      and not exists (select 1 from webhook_deliveries d where d.message_id = m.id and d.endpoint_id = e.id)
    on conflict do nothing`.execute(db);
  // The insert trigger of migration 0023 wakes the workers.
  return Number(result.numAffectedRows ?? 0);
}

/** Wakes the workers as new deliveries do (migration 0023's trigger fires on inserts only). */
async function wakeWorkers(db: Db): Promise<void> {
  await sql`select pg_notify('latchkey_changes', 'webhook:due')`.execute(db);
}
