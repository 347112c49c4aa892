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
    email: row.email,
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

/** Links a provider account to a user; OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED for a provider the project lacks. */
export async function createOAuthAccount(db: Db, projectId: string, config: ProjectConfig, input: NewOAuthAccount): Promise<OAuthAccountRow> {
  const provider = findProjectProvider(config, input.providerConfigId);
  if (!provider) throw new KnownErrors.OAuthProviderNotFoundOrNotEnabled();
  if (!UUID.test(input.userId)) throw new KnownErrors.UserNotFound();
  // Each change to a user's links shows in its oauth_providers (id, account id, email): user.updated.
  return uniqueLinks(() =>
    db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom("users").select("id").where("project_id", "=", projectId).where("id", "=", input.userId).executeTakeFirst();
      if (!user) throw new KnownErrors.UserNotFound();
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

export interface OAuthAccountUpdate {
  allowSignIn?: boolean;
  allowConnectedAccounts?: boolean;
  email?: string;
  accountId?: string;
}

export async function updateOAuthAccount(db: Db, projectId: string, userId: string, id: string, update: OAuthAccountUpdate): Promise<OAuthAccountRow | undefined> {
  if (!UUID.test(userId) || !UUID.test(id)) return undefined;
  const changes = {
    ...(update.allowSignIn !== undefined ? { allow_sign_in: update.allowSignIn } : {}),
    ...(update.allowConnectedAccounts !== undefined ? { allow_connected_accounts: update.allowConnectedAccounts } : {}),
    ...(update.email !== undefined ? { email: update.email } : {}),
    ...(update.accountId !== undefined ? { provider_account_id: update.accountId } : {}),
  };
  if (Object.keys(changes).length === 0) return findOAuthAccount(db, projectId, userId, id);
  return uniqueLinks(() =>
    db
      .transaction()
      .execute((trx) =>
        emittingUserUpdated(trx, projectId, userId, () =>
          trx.updateTable("oauth_accounts").set(changes).where("project_id", "=", projectId).where("user_id", "=", userId).where("id", "=", id.toLowerCase()).returningAll().executeTakeFirst(),
        ),
      ),
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
