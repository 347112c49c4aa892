import { KnownErrors } from "@latchkey/protocol/errors";
import { exactAddressFirst, sameAuthAddress } from "./auth-address.js";
import type { Db } from "../db/connect.js";
import type { Env } from "../env.js";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import type { ProjectProvider } from "../oauth/project-providers.js";
import type { ProviderProfile, ProviderTokens } from "../oauth/inner-client.js";
import { sameTypeConfigIds } from "./oauth-accounts.js";
import type { OuterOAuthInfo } from "./oauth-flow-records.js";
import { storeProviderTokens } from "./oauth-tokens.js";
import type { ProjectRow } from "./projects.js";
import { createPersonalTeam, createUser, isUniqueViolation } from "./users.js";
import { emitIfUserReadChanged, emittingUserUpdated, watchUserRead } from "./user-updated-events.js";

/**
 * What the provider's answer does to Latchkey's users (SPEC.md §3 "OAuth provider link", `oauthAccountMergeStrategy`),
 * in one transaction: link the account to the signed-in user (`type=link`); or sign in with an existing sign-in link;
 * or meet an account that already signs in with the provider's email (merge strategy); or sign up — upgrading the
 * anonymous user of the authorize request's token, if any, so it keeps its id.
 */

export interface OAuthCallbackOutcome {
  userId: string;
  isNewUser: boolean;
}

export async function applyProviderAnswer(
  db: Db,
  env: Env,
  project: ProjectRow,
  provider: ProjectProvider,
  outer: OuterOAuthInfo,
  answer: { profile: ProviderProfile; tokens: ProviderTokens },
): Promise<OAuthCallbackOutcome> {
  try {
    return await db.transaction().execute((trx) => (outer.type === "link" ? link(trx, env, project, provider, outer, answer) : authenticate(trx, env, project, provider, outer, answer)));
  } catch (error) {
    // Two callbacks for the same provider account racing: the unique indexes let one win.
    if (isUniqueViolation(error, "oauth_accounts_sign_in")) throw new KnownErrors.OAuthProviderAccountIdAlreadyUsedForSignIn();
    if (isUniqueViolation(error, "oauth_accounts_user_account")) throw new KnownErrors.OAuthConnectionAlreadyConnectedToAnotherUser();
    throw error;
  }
}

type Answer = { profile: ProviderProfile; tokens: ProviderTokens };

async function link(trx: Db, env: Env, project: ProjectRow, provider: ProjectProvider, outer: OuterOAuthInfo, { profile, tokens }: Answer): Promise<OAuthCallbackOutcome> {
  const userId = outer.userId;
  const user = userId ? await trx.selectFrom("users").select("id").where("project_id", "=", project.id).where("id", "=", userId).forUpdate().executeTakeFirst() : undefined;
  if (!user) throw new KnownErrors.UserNotFound();
  const existing = await trx
    .selectFrom("oauth_accounts")
    .select(["id", "user_id"])
    .where("project_id", "=", project.id)
    .where("provider_config_id", "=", provider.configId)
    .where("provider_account_id", "=", profile.accountId)
    .execute();
  if (existing.some((row) => row.user_id !== user.id)) throw new KnownErrors.OAuthConnectionAlreadyConnectedToAnotherUser();
  const own = existing[0];
  if (own) {
    await trx.updateTable("oauth_accounts").set({ allow_connected_accounts: true }).where("id", "=", own.id).execute();
    await storeProviderTokens(trx, env, own.id, tokens);
    return { userId: user.id, isNewUser: false };
  }
  // A linked account also signs in, unless the user already signs in with another account of this provider
  // type (SPEC.md §3: one sign-in link per type), under this config entry or another entry of the same type.
  const config = renderProjectConfig(project.config_override as ConfigObject);
  const sameType = sameTypeConfigIds(config, provider.type);
  const signsInAlready = await trx
    .selectFrom("oauth_accounts")
    .select("id")
    .where("user_id", "=", user.id)
    .where("provider_config_id", "in", sameType)
    .where("allow_sign_in", "=", true)
    .executeTakeFirst();
  // A new provider account in the user's oauth_providers: user.updated.
  const created = await emittingUserUpdated(trx, project.id, user.id, () => insertLink(trx, project.id, user.id, provider, profile, { allowSignIn: provider.allowSignIn && !signsInAlready }));
  await storeProviderTokens(trx, env, created, tokens);
  return { userId: user.id, isNewUser: false };
}

async function authenticate(trx: Db, env: Env, project: ProjectRow, provider: ProjectProvider, outer: OuterOAuthInfo, { profile, tokens }: Answer): Promise<OAuthCallbackOutcome> {
  const signInLink = await trx
    .selectFrom("oauth_accounts")
    .select(["id", "user_id"])
    .where("project_id", "=", project.id)
    .where("provider_config_id", "=", provider.configId)
    .where("provider_account_id", "=", profile.accountId)
    .where("allow_sign_in", "=", true)
    .executeTakeFirst();
  if (signInLink) {
    await storeProviderTokens(trx, env, signInLink.id, tokens);
    return { userId: signInLink.user_id, isNewUser: false };
  }

  const config = renderProjectConfig(project.config_override as ConfigObject);
  let primaryEmailAuthEnabled = profile.email !== null;
  if (profile.email) {
    const channel = await trx
      .selectFrom("contact_channels")
      .select(["user_id", "is_verified"])
      .where("project_id", "=", project.id)
      .where("type", "=", "email")
      .where(sameAuthAddress("value", profile.email))
      .where("used_for_auth", "=", true)
      .orderBy(exactAddressFirst("value", profile.email), "desc")
      .executeTakeFirst();
    if (channel) {
      switch (config.auth.oauth.accountMergeStrategy) {
        case "link_method": {
          // Linking hands the existing account to whoever controls the provider account, so both sides must
          // have proven the address: the account's channel, and the provider's claim.
          if (!channel.is_verified) throw new KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse("email", profile.email, true);
          if (!profile.emailVerified) throw new KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse("email", profile.email);
          const created = await emittingUserUpdated(trx, project.id, channel.user_id, () => insertLink(trx, project.id, channel.user_id, provider, profile, { allowSignIn: true }));
          await storeProviderTokens(trx, env, created, tokens);
          return { userId: channel.user_id, isNewUser: false };
        }
        case "raise_error":
          throw new KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse("email", profile.email);
        case "allow_duplicates":
          // A second account with the same address, which cannot sign in with it (only one account may).
          primaryEmailAuthEnabled = false;
          break;
      }
    }
  }

  if (!config.auth.allowSignUp) throw new KnownErrors.SignUpNotEnabled();

  // An anonymous user signing up with the provider (is_anonymous, oauth_providers…): user.updated once linked.
  const watch = outer.userId ? await watchUserRead(trx, project.id, outer.userId) : undefined;
  const upgraded = outer.userId ? await upgradeAnonymousUser(trx, project, outer.userId, profile, primaryEmailAuthEnabled) : undefined;
  const userId =
    upgraded ??
    (
      await createUser(trx, project, {
        displayName: profile.displayName,
        profileImage: profile.profileImageUrl ? { kind: "url", url: profile.profileImageUrl } : undefined,
        primaryEmail: profile.email,
        primaryEmailVerified: profile.emailVerified,
        primaryEmailAuthEnabled,
      })
    ).id;
  const created = await insertLink(trx, project.id, userId, provider, profile, { allowSignIn: true });
  if (upgraded && watch) await emitIfUserReadChanged(watch);
  await storeProviderTokens(trx, env, created, tokens);
  return { userId, isNewUser: true };
}

/**
 * The anonymous user of the authorize request becomes the provider account's user, keeping its id and what it
 * owns; undefined when that user is not anonymous (a signed-in user signing in with a provider gets that account).
 */
async function upgradeAnonymousUser(trx: Db, project: ProjectRow, userId: string, profile: ProviderProfile, primaryEmailAuthEnabled: boolean): Promise<string | undefined> {
  const user = await trx
    .updateTable("users")
    .set((eb) => ({
      is_anonymous: false,
      display_name: eb.fn.coalesce("display_name", eb.val(profile.displayName)),
      profile_image_url: eb.fn.coalesce("profile_image_url", eb.val(profile.profileImageUrl)),
    }))
    .where("id", "=", userId)
    .where("project_id", "=", project.id)
    .where("is_anonymous", "=", true)
    .returning(["id", "display_name"])
    .executeTakeFirst();
  if (!user) return undefined;
  if (profile.email) {
    await trx.updateTable("contact_channels").set({ is_primary: false }).where("user_id", "=", userId).where("type", "=", "email").where("is_primary", "=", true).execute();
    await trx
      .insertInto("contact_channels")
      .values({ project_id: project.id, user_id: userId, type: "email", value: profile.email, is_verified: profile.emailVerified, is_primary: true, used_for_auth: primaryEmailAuthEnabled })
      .onConflict((oc) => oc.columns(["user_id", "type", "value"]).doUpdateSet({ is_primary: true, used_for_auth: primaryEmailAuthEnabled, is_verified: profile.emailVerified }))
      .execute();
  }
  const config = renderProjectConfig(project.config_override as ConfigObject);
  const inATeam = await trx.selectFrom("team_members").select("team_id").where("user_id", "=", userId).executeTakeFirst();
  if (config.teams.createPersonalTeamOnSignUp && !inATeam) await createPersonalTeam(trx, project, userId, user.display_name ?? profile.email);
  return userId;
}

async function insertLink(trx: Db, projectId: string, userId: string, provider: ProjectProvider, profile: ProviderProfile, options: { allowSignIn: boolean }): Promise<string> {
  const row = await trx
    .insertInto("oauth_accounts")
    .values({
      project_id: projectId,
      user_id: userId,
      provider_config_id: provider.configId,
      provider_account_id: profile.accountId,
      email: profile.email,
      allow_sign_in: options.allowSignIn,
      allow_connected_accounts: true,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
