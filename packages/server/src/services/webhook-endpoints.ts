import { sql, type Selectable, type SqlBool } from "kysely";
import type { Db } from "../db/connect.js";
import type { WebhookEndpointsTable } from "../db/schema-webhooks.js";
import type { Env } from "../env.js";
import { openSealedText, sealText, type SealedBytes } from "../crypto/sealed-text.js";
import { newWebhookSecret } from "../crypto/webhook-signatures.js";
import { webhookId } from "./webhook-outbox.js";

/**
 * A project's webhook endpoints (issue 18), as the Svix-compatible API (routes/webhooks-svix.ts) manages them.
 * An endpoint is named by its id (`ep_…`) or by the caller's own `uid`, as in Svix.
 */

export type EndpointRow = Selectable<WebhookEndpointsTable>;

export interface EndpointFields {
  url: string;
  description?: string;
  disabled?: boolean;
  /** Event types it receives; null (or absent) receives all. */
  filterTypes?: string[] | null;
  uid?: string | null;
  metadata?: Record<string, string>;
}

/** How long a rotated-out secret still signs, as in Svix. */
export const PREVIOUS_SECRET_LIFETIME_MS = 24 * 60 * 60 * 1000;

const boundTo = (endpointId: string, which: "current" | "previous" = "current") => (which === "current" ? `webhook-endpoint:${endpointId}` : `webhook-endpoint:${endpointId}:previous`);

/** The endpoint's `whsec_…` secret, or undefined when no current or previous server secret sealed it. */
export function openEndpointSecret(env: Env, endpointId: string, sealed: SealedBytes, which: "current" | "previous" = "current"): string | undefined {
  return openSealedText([env.serverSecret, ...env.previousServerSecrets], boundTo(endpointId, which), sealed);
}

/**
 * Replaces the endpoint's secret (with `secret`, or a new one); the old one keeps signing beside it for
 * PREVIOUS_SECRET_LIFETIME_MS. False when there is no such endpoint.
 */
export async function rotateEndpointSecret(db: Db, env: Env, projectId: string, idOrUid: string, secret?: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // Locked, so two rotations at once apply one after the other and the second keeps the first's as previous.
    const current = await trx
      .selectFrom("webhook_endpoints")
      .selectAll()
      .where("project_id", "=", projectId)
      .where((eb) => eb.or([eb("id", "=", idOrUid), eb("uid", "=", idOrUid)]))
      .forUpdate()
      .executeTakeFirst();
    if (!current) return false;
    const old = openEndpointSecret(env, current.id, { sealed: current.sealed_secret, keyId: current.sealing_key_id });
    if (!old) throw new Error(`webhook endpoint ${current.id}: secret sealed with an unknown server secret`);
    const next = sealText(env.serverSecret, boundTo(current.id), secret ?? newWebhookSecret());
    const previous = sealText(env.serverSecret, boundTo(current.id, "previous"), old);
    await trx
      .updateTable("webhook_endpoints")
      .set({
        sealed_secret: next.sealed,
        sealing_key_id: next.keyId,
        previous_sealed_secret: previous.sealed,
        previous_sealing_key_id: previous.keyId,
        previous_secret_expires_at: new Date(Date.now() + PREVIOUS_SECRET_LIFETIME_MS),
        updated_at: new Date(),
      })
      .where("id", "=", current.id)
      .execute();
    return true;
  });
}

export async function createEndpoint(db: Db, env: Env, projectId: string, fields: EndpointFields & { secret?: string }): Promise<EndpointRow> {
  const id = webhookId("ep");
  const sealed = sealText(env.serverSecret, boundTo(id), fields.secret ?? newWebhookSecret());
  return db
    .insertInto("webhook_endpoints")
    .values({
      id,
      project_id: projectId,
      url: fields.url,
      description: fields.description ?? "",
      disabled: fields.disabled ?? false,
      filter_types: fields.filterTypes ?? null,
      uid: fields.uid ?? null,
      metadata: JSON.stringify(fields.metadata ?? {}),
      sealed_secret: sealed.sealed,
      sealing_key_id: sealed.keyId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The endpoint named by id or uid in the project. */
export async function findEndpoint(db: Db, projectId: string, idOrUid: string): Promise<EndpointRow | undefined> {
  return db
    .selectFrom("webhook_endpoints")
    .selectAll()
    .where("project_id", "=", projectId)
    .where((eb) => eb.or([eb("id", "=", idOrUid), eb("uid", "=", idOrUid)]))
    .executeTakeFirst();
}

/** A page of endpoints in creation order; `iterator` is the last id of the previous page. */
export async function listEndpoints(db: Db, projectId: string, options: { limit: number; iterator?: string; descending?: boolean }): Promise<{ endpoints: EndpointRow[]; done: boolean }> {
  let query = db.selectFrom("webhook_endpoints").selectAll().where("project_id", "=", projectId);
  if (options.iterator) {
    const anchor = await db.selectFrom("webhook_endpoints").select("id").where("project_id", "=", projectId).where("id", "=", options.iterator).executeTakeFirst();
    if (!anchor) return { endpoints: [], done: true };
    // The anchor's position is read in SQL: a microsecond timestamp would not survive a JavaScript Date.
    const comparison = sql.raw(options.descending ? "<" : ">");
    query = query.where(sql<SqlBool>`(created_at, id) ${comparison} (select a.created_at, a.id from webhook_endpoints a where a.id = ${anchor.id})`);
  }
  const direction = options.descending ? "desc" : "asc";
  const rows = await query.orderBy("created_at", direction).orderBy("id", direction).limit(options.limit + 1).execute();
  return { endpoints: rows.slice(0, options.limit), done: rows.length <= options.limit };
}

/** Changes the given fields (a PUT passes them all); undefined when there is no such endpoint. */
export async function updateEndpoint(db: Db, projectId: string, idOrUid: string, fields: Partial<EndpointFields>): Promise<EndpointRow | undefined> {
  const current = await findEndpoint(db, projectId, idOrUid);
  if (!current) return undefined;
  return db
    .updateTable("webhook_endpoints")
    .set({
      ...(fields.url !== undefined && { url: fields.url }),
      ...(fields.description !== undefined && { description: fields.description }),
      // Enabled (again): the 5 days after which failures disable it count from now (webhook-endpoint-health.ts).
      ...(fields.disabled !== undefined && { disabled: fields.disabled, ...(fields.disabled === false && { failing_since: null }) }),
      ...(fields.filterTypes !== undefined && { filter_types: fields.filterTypes }),
      ...(fields.uid !== undefined && { uid: fields.uid }),
      ...(fields.metadata !== undefined && { metadata: JSON.stringify(fields.metadata) }),
      updated_at: new Date(),
    })
    .where("id", "=", current.id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteEndpoint(db: Db, projectId: string, idOrUid: string): Promise<boolean> {
  const current = await findEndpoint(db, projectId, idOrUid);
  if (!current) return false;
  const result = await db.deleteFrom("webhook_endpoints").where("id", "=", current.id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
