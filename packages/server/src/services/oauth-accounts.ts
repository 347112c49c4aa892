import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import { OAUTH_PROVIDER_IDS, type OAuthProviderId, type OAuthProviderServerRead } from "@latchkey/protocol/schemas";
import type { Selectable } from "kysely";
import type { Db } from "../db/connect.js";
import type { OAuthAccountsTable } from "../db/schema-oauth.js";
import type { ProjectConfig } from "../config/project-config.js";
import { findProjectProvider } from "../oauth/project-providers.js";
import { isUniqueViolation } from "./users.js";
import { emittingUserUpdated } from "./user-updated-events.js";

/**
 * A user's OAuth links managed through `/oauth-providers` (SPEC.md §3 "OAuth provider link"); the OAuth
 * callback makes them too (services/oauth-sign-in.ts). A provider account signs in to one user at most:
 * the partial unique index `oauth_accounts_sign_in` decides races.
 */

export type OAuthAccountRow = Selectable<OAuthAccountsTable>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function renderOAuthAccount(config: ProjectConfig, row: OAuthAccountRow): OAuthProviderServerRead | undefined {
  const type = providerTypeOf(config, row.provider_config_id);
  if (!type) return undefined;
  return {
    user_id: row.user_id,
    id: row.id,
    ...(row.email !== null && { email: row.email }),
    provider_config_id: row.provider_config_id,
    type,
    allow_sign_in: row.allow_sign_in,
    allow_connected_accounts: row.allow_connected_accounts,
    account_id: row.provider_account_id,
  };
}

/** The provider type of a link: its config entry's, or (entry removed since) the id itself when it names a type. */
function providerTypeOf(config: ProjectConfig, providerConfigId: string): OAuthProviderId | undefined {
  const entry = config.auth.oauth.providers[providerConfigId];
  if (entry?.type) return entry.type;
  return (OAUTH_PROVIDER_IDS as readonly string[]).includes(providerConfigId) ? (providerConfigId as OAuthProviderId) : undefined;
}

export async function listOAuthAccounts(db: Db, projectId: string, userId: string | undefined): Promise<OAuthAccountRow[]> {
  let query = db.selectFrom("oauth_accounts").selectAll().where("project_id", "=", projectId);
  if (userId !== undefined) {
    if (!UUID.test(userId)) return [];
    query = query.where("user_id", "=", userId);
  }
  return query.orderBy("created_at").orderBy("id").execute();
}

export async function findOAuthAccount(db: Db, projectId: string, userId: string, id: string): Promise<OAuthAccountRow | undefined> {
  if (!UUID.test(userId) || !UUID.test(id)) return undefined;
  return db.selectFrom("oauth_accounts").selectAll().where("project_id", "=", projectId).where("user_id", "=", userId).where("id", "=", id.toLowerCase()).executeTakeFirst();
}

export interface NewOAuthAccount {
  userId: string;
  providerConfigId: string;
  accountId: string;
  email: string | null;
  allowSignIn: boolean;
  allowConnectedAccounts: boolean;
}

/**
 * Links a provider account to a user. Refused, in the protocol server's order: a provider the project lacks (404);
 * a user that does not exist; a second sign-in link of the same provider type for the user; the same type and
 * account id linked to the user already; a provider account that signs in to another user (the unique index).
 */
export async function createOAuthAccount(db: Db, projectId: string, config: ProjectConfig, input: NewOAuthAccount): Promise<OAuthAccountRow> {
  const provider = findProjectProvider(config, input.providerConfigId);
  if (!provider) throw providerNotConfigured(input.providerConfigId);
  if (!UUID.test(input.userId)) throw new KnownErrors.UserNotFound();
  // Each change to a user's links shows in its oauth_providers (id, account id, email): user.updated.
  return uniqueLinks(() =>
    db.transaction().execute(async (trx) => {
      // Locked, so two requests for the same user cannot both pass the per-user checks.
      const user = await trx.selectFrom("users").select("id").where("project_id", "=", projectId).where("id", "=", input.userId).forUpdate().executeTakeFirst();
      if (!user) throw new KnownErrors.UserNotFound();
      await checkUserLinks(trx, projectId, config, user.id, provider.type, { allowSignIn: input.allowSignIn, accountId: input.accountId });
      return emittingUserUpdated(trx, projectId, user.id, () =>
        trx
          .insertInto("oauth_accounts")
          .values({
            project_id: projectId,
            user_id: user.id,
            provider_config_id: provider.configId,
            provider_account_id: input.accountId,
            email: input.email,
            allow_sign_in: input.allowSignIn,
            allow_connected_accounts: input.allowConnectedAccounts,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
    }),
  );
}

const providerNotConfigured = (providerConfigId: string) => new HTTPException(404, { message: `OAuth provider ${providerConfigId} not found or not configured` });

/** The config ids a user's links of provider type `type` may have: the entries of that type, and the type itself (links made before an entry was renamed). */
export function sameTypeConfigIds(config: ProjectConfig, type: OAuthProviderId): string[] {
  return [type, ...Object.entries(config.auth.oauth.providers).flatMap(([configId, entry]) => (entry.type === type ? [configId] : []))];
}

/**
 * A user's links of one provider type (SPEC.md §3): one of them at most signs in, and an account id is linked once.
 * `except` is the link being changed. The protocol server's 400 texts.
 */
async function checkUserLinks(
  trx: Db,
  projectId: string,
  config: ProjectConfig,
  userId: string,
  type: OAuthProviderId,
  change: { allowSignIn?: boolean; accountId?: string; except?: string },
): Promise<void> {
  const links = await trx
    .selectFrom("oauth_accounts")
    .select(["id", "allow_sign_in", "provider_account_id"])
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .where("provider_config_id", "in", sameTypeConfigIds(config, type))
    .execute();
  const others = links.filter((link) => link.id !== change.except);
  if (change.allowSignIn && others.some((link) => link.allow_sign_in)) {
    throw new HTTPException(400, { message: "The same provider type with sign-in enabled already exists for this user." });
  }
  if (change.accountId !== undefined && others.some((link) => link.provider_account_id === change.accountId)) {
    throw new HTTPException(400, { message: "The same provider type with the same account ID already exists for this user." });
  }
}

export interface OAuthAccountUpdate {
  allowSignIn?: boolean;
  allowConnectedAccounts?: boolean;
  email?: string;
  accountId?: string;
}

/**
 * Changes a link; undefined when the user has no such link. The link's provider entry must still exist (404 as
 * at creation), and the change must keep the user's links of that type valid (checkUserLinks).
 */
export async function updateOAuthAccount(db: Db, projectId: string, config: ProjectConfig, userId: string, id: string, update: OAuthAccountUpdate): Promise<OAuthAccountRow | undefined> {
  if (!UUID.test(userId) || !UUID.test(id)) return undefined;
  const changes = {
    ...(update.allowSignIn !== undefined ? { allow_sign_in: update.allowSignIn } : {}),
    ...(update.allowConnectedAccounts !== undefined ? { allow_connected_accounts: update.allowConnectedAccounts } : {}),
    ...(update.email !== undefined ? { email: update.email } : {}),
    ...(update.accountId !== undefined ? { provider_account_id: update.accountId } : {}),
  };
  return uniqueLinks(() =>
    db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom("users").select("id").where("project_id", "=", projectId).where("id", "=", userId).forUpdate().executeTakeFirst();
      const link = user && (await trx.selectFrom("oauth_accounts").selectAll().where("project_id", "=", projectId).where("user_id", "=", userId).where("id", "=", id.toLowerCase()).executeTakeFirst());
      if (!link) return undefined;
      const provider = findProjectProvider(config, link.provider_config_id);
      if (!provider) throw providerNotConfigured(link.provider_config_id);
      if (Object.keys(changes).length === 0) return link;
      await checkUserLinks(trx, projectId, config, userId, provider.type, { allowSignIn: update.allowSignIn, accountId: update.accountId, except: link.id });
      return emittingUserUpdated(trx, projectId, userId, () => trx.updateTable("oauth_accounts").set(changes).where("id", "=", link.id).returningAll().executeTakeFirst());
    }),
  );
}

export async function deleteOAuthAccount(db: Db, projectId: string, userId: string, id: string): Promise<boolean> {
  if (!UUID.test(userId) || !UUID.test(id)) return false;
  const result = await db
    .transaction()
    .execute((trx) =>
      emittingUserUpdated(trx, projectId, userId, () => trx.deleteFrom("oauth_accounts").where("project_id", "=", projectId).where("user_id", "=", userId).where("id", "=", id.toLowerCase()).executeTakeFirst()),
    );
  return Number(result.numDeletedRows) > 0;
}

/** The unique indexes' verdicts as the protocol's errors: one sign-in link per provider account, one link per user and account. */
async function uniqueLinks<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, "oauth_accounts_sign_in")) throw new KnownErrors.OAuthProviderAccountIdAlreadyUsedForSignIn();
    if (isUniqueViolation(error, "oauth_accounts_user_account")) throw new KnownErrors.OAuthConnectionAlreadyConnectedToAnotherUser();
    throw error;
  }
}
