import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { webhookListeningCacheOf } from "../cache/webhook-listening.js";
import type { Db } from "../db/connect.js";
import type { ProjectRow } from "../db/rows.js";
import type { TeamRow } from "./teams.js";
import { renderServerTeam } from "./teams.js";
import { renderServerUser, type UserRecord } from "./user-read.js";
import { restrictionPolicy } from "./user-restrictions.js";
import { versionedPayloads } from "./webhook-payload-versions.js";

/**
 * The webhook outbox (issue 18): a change and the events describing it are written in one transaction, so a
 * rolled-back change emits nothing and a committed one cannot be lost. The delivery workers
 * (services/webhook-delivery.ts) send them. Payloads are `{ "type": …, "data": … }` with data in the protocol's
 * server read shape, as the reference's webhooks carry it: kept in both protocol versions' shapes where they differ
 * (services/webhook-payload-versions.ts).
 */

export type WebhookEventType =
  | "user.created"
  | "user.updated"
  | "user.deleted"
  | "team.created"
  | "team.updated"
  | "team.deleted"
  | "team_membership.created"
  | "team_membership.deleted"
  | "team_permission.created"
  | "team_permission.deleted"
  | "project_permission.created"
  | "project_permission.deleted";

export interface WebhookEvent {
  type: WebhookEventType;
  data: unknown;
}

/** Svix-style ids: a prefix and 27 random characters. */
export function webhookId(prefix: "msg" | "ep" | "qtask"): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let out = "";
  // 62 symbols: `byte % 62` is very slightly uneven, harmless for ids that only need to be unique.
  for (const byte of randomBytes(27)) out += alphabet[byte % 62];
  return `${prefix}_${out}`;
}

/**
 * Whether the project has an enabled endpoint: one indexed lookup, answered from the process's cache
 * (cache/webhook-listening.ts) when the server keeps one. Without an endpoint no event is written and no payload
 * built, so projects without webhooks pay at most this on their writes.
 */
export function webhooksListening(trx: Db, projectId: string): Promise<boolean> {
  const query = () =>
    trx
      .selectFrom("webhook_endpoints")
      .select("id")
      .where("project_id", "=", projectId)
      .where("disabled", "=", false)
      .limit(1)
      .executeTakeFirst()
      .then((endpoint) => endpoint !== undefined);
  const cache = webhookListeningCacheOf(trx);
  const lookup = cache ? () => cache.listening(projectId, query) : query;
  // A write that emits several events (a sign-up with its personal team) asks once per transaction.
  if (!trx.isTransaction) return lookup();
  let answers = listeningInTransaction.get(trx);
  if (!answers) listeningInTransaction.set(trx, (answers = new Map()));
  let answer = answers.get(projectId);
  if (!answer) answers.set(projectId, (answer = lookup()));
  return answer;
}
const listeningInTransaction = new WeakMap<Db, Map<string, Promise<boolean>>>();

/**
 * Writes the events (built only when someone listens) to the outbox inside `trx`; inside `batchingWebhookEvents`,
 * they are kept and written with the others of the batch.
 */
export async function emitWebhookEvents(trx: Db, projectId: string, events: () => Promise<WebhookEvent[]> | WebhookEvent[]): Promise<void> {
  if (!(await webhooksListening(trx, projectId))) return;
  const batch = batches.get(trx);
  if (batch && batch.projectId === projectId) batch.events.push(...(await events()));
  else await writeWebhookEvents(trx, projectId, await events());
}
const batches = new WeakMap<Db, { projectId: string; events: WebhookEvent[] }>();

/**
 * Runs `work` inside `trx` with the project's events kept, then writes them all in one statement: a sign-up
 * emits user.created, team.created, team_membership.created and the creator's permissions from four places,
 * and each statement is a round trip on the write path (issue 18: ≤ 10 % on sign-up). Nothing is written if
 * `work` throws (the transaction rolls back anyway).
 */
export async function batchingWebhookEvents<T>(trx: Db, projectId: string, work: () => Promise<T>): Promise<T> {
  if (batches.has(trx)) return work();
  const batch = { projectId, events: [] as WebhookEvent[] };
  batches.set(trx, batch);
  try {
    const result = await work();
    await writeWebhookEvents(trx, projectId, batch.events);
    return result;
  } finally {
    batches.delete(trx);
  }
}

/**
 * The events as messages, in one statement however many events (a creator's default permissions are several),
 * so the write path pays one round trip. Their deliveries, one per enabled endpoint that takes each type, are
 * made by the delivery workers (services/webhook-delivery.ts), woken on commit: the write path writes one row
 * per event and nothing else.
 */
export async function writeWebhookEvents(trx: Db, projectId: string, events: readonly WebhookEvent[]): Promise<void> {
  if (events.length === 0) return;
  if (webhookListeningCacheOf(trx)?.handOff) return writeForwardedEvents(trx, projectId, events);
  const rows = events.map((event) => sql`(${webhookId("msg")}, ${projectId}, ${event.type}, ${payloadColumns(event)}, true)`);
  await sql`
    with message as (insert into webhook_messages (id, project_id, event_type, payload, payload_2_8_108, fan_out_pending) values ${sql.join(rows)})
    select pg_notify('latchkey_changes', 'webhook:due')`.execute(trx);
}

/** An event's `payload` and `payload_2_8_108` values (services/webhook-payload-versions.ts). */
function payloadColumns(event: WebhookEvent) {
  const { payload, newer } = versionedPayloads(event.type, event.data);
  return sql`${JSON.stringify(payload)}::jsonb, ${newer === null ? null : JSON.stringify(newer)}::jsonb`;
}

/**
 * With a real Svix server taking the events (LATCHKEY_SVIX_URL): messages due to be forwarded there
 * (services/webhook-svix-forwarder.ts), no deliveries of our own. The forwarders of every process are woken on
 * commit, as new deliveries wake the delivery workers.
 */
async function writeForwardedEvents(trx: Db, projectId: string, events: readonly WebhookEvent[]): Promise<void> {
  const rows = events.map((event) => sql`(${webhookId("msg")}, ${projectId}, ${event.type}, ${payloadColumns(event)}, now())`);
  await sql`insert into webhook_messages (id, project_id, event_type, payload, payload_2_8_108, forward_due_at) values ${sql.join(rows)}`.execute(trx);
  await sql`select pg_notify('latchkey_changes', 'webhook:forward')`.execute(trx);
}

/**
 * A message the app sends itself through the Svix-compatible API (`POST …/msg`: its own event type and payload,
 * to every enabled endpoint that takes the type), or an example sent to one endpoint (`…/send-example`: to that
 * endpoint whatever its filter, as Svix does). The worker delivers it like any event; `newerPayload` is the 2.8.108
 * shape of an example whose 2.8.41 one differs.
 */
export async function writeWebhookMessage(
  db: Db,
  projectId: string,
  message: { eventType: string; payload: unknown; newerPayload?: unknown; endpointId?: string },
): Promise<{ id: string; createdAt: Date }> {
  const id = webhookId("msg");
  const endpoints =
    message.endpointId === undefined
      ? sql`not e.disabled and (e.filter_types is null or ${message.eventType} = any(e.filter_types))`
      : sql`e.id = ${message.endpointId}`;
  const { rows } = await sql<{ created_at: Date }>`
    with message as (
      insert into webhook_messages (id, project_id, event_type, payload, payload_2_8_108)
      values (${id}, ${projectId}, ${message.eventType}, ${JSON.stringify(message.payload)}::jsonb, ${message.newerPayload === undefined ? null : JSON.stringify(message.newerPayload)}::jsonb)
      returning id, created_at
    ), deliveries as (
      insert into webhook_deliveries (message_id, endpoint_id, next_attempt_at)
      select message.id, e.id, now() from message join webhook_endpoints e on e.project_id = ${projectId} and ${endpoints}
    )
    select created_at from message`.execute(db);
  return { id, createdAt: new Date(rows[0]!.created_at) };
}

/** `user.created` / `user.updated` data: the user's server read shape; the project decides restriction. */
export function userEventData(project: ProjectRow | undefined, record: UserRecord): unknown {
  if (!project) throw new Error(`project of user ${record.user.id} not found`);
  return renderServerUser(record, restrictionPolicy(project));
}

export const teamEventData = (team: TeamRow): unknown => renderServerTeam(team);

export const membershipEvent = (type: "team_membership.created" | "team_membership.deleted", teamId: string, userId: string): WebhookEvent => ({
  type,
  data: { team_id: teamId, user_id: userId },
});
