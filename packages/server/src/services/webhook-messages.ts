import { sql, type Selectable, type SqlBool } from "kysely";
import type { Db } from "../db/connect.js";
import type { WebhookMessagesTable } from "../db/schema-webhooks.js";

/** Reading the outbox (services/webhook-outbox.ts) for the Svix-compatible API: a project's messages, newest first. */

export type MessageRow = Selectable<WebhookMessagesTable>;

export interface MessageListOptions {
  limit: number;
  /** The last id of the previous page. */
  iterator?: string;
  eventTypes?: string[];
  before?: Date;
  after?: Date;
}

export async function listMessages(db: Db, projectId: string, options: MessageListOptions): Promise<{ messages: MessageRow[]; done: boolean }> {
  let query = db.selectFrom("webhook_messages").selectAll().where("project_id", "=", projectId);
  if (options.eventTypes?.length) query = query.where("event_type", "in", options.eventTypes);
  if (options.before) query = query.where("created_at", "<", options.before);
  if (options.after) query = query.where("created_at", ">", options.after);
  if (options.iterator) {
    // The anchor's position is read in SQL: a microsecond timestamp would not survive a JavaScript Date.
    query = query.where(sql<SqlBool>`(created_at, id) < (select a.created_at, a.id from webhook_messages a where a.id = ${options.iterator} and a.project_id = ${projectId})`);
  }
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(options.limit + 1).execute();
  return { messages: rows.slice(0, options.limit), done: rows.length <= options.limit };
}

export async function findMessage(db: Db, projectId: string, messageId: string): Promise<MessageRow | undefined> {
  return db.selectFrom("webhook_messages").selectAll().where("project_id", "=", projectId).where("id", "=", messageId).executeTakeFirst();
}

export interface AttemptRow {
  id: string;
  message_id: string;
  endpoint_id: string;
  attempted_at: Date;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number;
  url: string;
}

/** A project's delivery attempts, newest first, for one message or one endpoint (or both); `iterator` is the last id. */
export async function listAttempts(
  db: Db,
  projectId: string,
  filter: { messageId?: string; endpointId?: string },
  options: { limit: number; iterator?: string; succeeded?: boolean },
): Promise<{ attempts: AttemptRow[]; done: boolean }> {
  let query = db
    .selectFrom("webhook_attempts as a")
    .innerJoin("webhook_endpoints as e", "e.id", "a.endpoint_id")
    .select(["a.id", "a.message_id", "a.endpoint_id", "a.attempted_at", "a.response_status", "a.response_body", "a.duration_ms", "e.url"])
    .where("e.project_id", "=", projectId);
  if (filter.messageId) query = query.where("a.message_id", "=", filter.messageId);
  if (filter.endpointId) query = query.where("a.endpoint_id", "=", filter.endpointId);
  if (options.succeeded !== undefined) {
    const success = sql<SqlBool>`coalesce(a.response_status between 200 and 299, false)`;
    query = query.where(options.succeeded ? success : sql<SqlBool>`not ${success}`);
  }
  if (options.iterator) {
    if (!/^[0-9a-f-]{36}$/.test(options.iterator)) return { attempts: [], done: true };
    query = query.where(sql<SqlBool>`(a.attempted_at, a.id) < (select p.attempted_at, p.id from webhook_attempts p where p.id = ${options.iterator})`);
  }
  const rows = await query.orderBy("a.attempted_at", "desc").orderBy("a.id", "desc").limit(options.limit + 1).execute();
  return { attempts: rows.slice(0, options.limit), done: rows.length <= options.limit };
}

/**
 * Sends a message to an endpoint again, now (Svix's "resend"): its delivery is due at once, whatever its state.
 * False when the project has no such delivery.
 */
export async function resendMessage(db: Db, projectId: string, messageId: string, endpointId: string): Promise<boolean> {
  const result = await db
    .updateTable("webhook_deliveries")
    .set({ status: "pending", next_attempt_at: sql<Date>`now()`, claim_token: null, updated_at: sql<Date>`now()` })
    .where("message_id", "=", messageId)
    .where("endpoint_id", "=", endpointId)
    .where((eb) => eb.exists(eb.selectFrom("webhook_messages").select("id").where("id", "=", messageId).where("project_id", "=", projectId)))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  // Wakes the workers as new deliveries do (migration 0023's trigger fires on inserts only).
  await sql`select pg_notify('latchkey_changes', 'webhook:due')`.execute(db);
  return true;
}
