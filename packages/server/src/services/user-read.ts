import { KnownErrors } from "@latchkey/protocol/errors";
import type { Caches } from "../cache/caches.js";
import type { Db } from "../db/connect.js";
import type { ContactChannelRow, TeamRow, UserRecord } from "../db/rows.js";
import { renderClientTeam, renderServerTeam } from "./teams.js";
import { findUserRow, type UserRow } from "./user-rows.js";
import { restrictedReasonOf, type RestrictionPolicy } from "./user-restrictions.js";

/** Reading users: the records behind the read shapes, and the client and server shapes themselves. */

type ChannelRow = ContactChannelRow;
export type { UserRecord };

export async function loadUserRecord(db: Db, projectId: string, userId: string): Promise<UserRecord> {
  const user = await findUserRow(db, projectId, userId);
  if (!user) throw new KnownErrors.UserNotFound();
  return completeUserRecord(db, user);
}

/**
 * The record of a project's user through the user cache (cache/caches.ts), or undefined: the signed-in
 * user of every request with an access token, so `/users/me` and refreshes need no query once cached.
 */
export async function findCachedUserRecord(db: Db, caches: Caches, projectId: string, userId: string): Promise<UserRecord | undefined> {
  const id = userId.toLowerCase();
  const record = await caches.users.get(id, async () => {
    const user = await findUserRow(db, projectId, id);
    return user ? completeUserRecord(db, user) : undefined;
  });
  return record?.user.project_id === projectId ? record : undefined;
}

export async function completeUserRecord(db: Db, user: UserRow): Promise<UserRecord> {
  const [record] = await completeUserRecords(db, [user]);
  return record!;
}

/**
 * The server read shape of a user (server and admin callers, and `/users/me` with server access), with the
 * fields of both protocol versions (the route layer leaves out those the caller's version lacks). Whether
 * the user is restricted depends on the project (`restrictionPolicy(project)`).
 */
export function renderServerUser({ user, primaryEmail, selectedTeam, oauthAccounts }: UserRecord, policy: RestrictionPolicy) {
  const restrictedReason = restrictedReasonOf(user, primaryEmail, policy);
  return {
    id: user.id,
    primary_email: primaryEmail?.value ?? null,
    primary_email_verified: primaryEmail?.is_verified ?? false,
    primary_email_auth_enabled: primaryEmail?.used_for_auth ?? false,
    display_name: user.display_name,
    selected_team: selectedTeam ? renderServerTeam(selectedTeam) : null,
    selected_team_id: user.selected_team_id,
    profile_image_url: user.profile_image_url,
    signed_up_at_millis: user.created_at.getTime(),
    has_password: user.password_hash !== null,
    otp_auth_enabled: user.otp_auth_enabled,
    passkey_auth_enabled: user.passkey_auth_enabled,
    client_metadata: user.client_metadata ?? null,
    client_read_only_metadata: user.client_read_only_metadata ?? null,
    server_metadata: user.server_metadata ?? null,
    last_active_at_millis: user.last_active_at.getTime(),
    is_anonymous: user.is_anonymous,
    oauth_providers: oauthAccounts.map((a) => ({ id: a.provider_config_id, account_id: a.provider_account_id, email: a.email })),
    // As the protocol computes it: whether the user has an email-based way in, whatever the channels say.
    auth_with_email: user.password_hash !== null || user.otp_auth_enabled,
    requires_totp_mfa: user.totp_secret !== null,
    is_restricted: restrictedReason !== null,
    restricted_reason: restrictedReason,
    restricted_by_admin: user.restricted_by_admin,
    restricted_by_admin_reason: user.restricted_by_admin_reason,
    restricted_by_admin_private_details: user.restricted_by_admin_private_details,
    country_code: user.country_code,
    risk_scores: { sign_up: { bot: user.risk_score_bot, free_trial_abuse: user.risk_score_free_trial_abuse } },
  };
}

/** The client read shape: what a signed-in user may see of themself. */
export function renderClientUser(record: UserRecord, policy: RestrictionPolicy) {
  const s = renderServerUser(record, policy);
  return {
    id: s.id,
    primary_email: s.primary_email,
    primary_email_verified: s.primary_email_verified,
    display_name: s.display_name,
    client_metadata: s.client_metadata,
    client_read_only_metadata: s.client_read_only_metadata,
    profile_image_url: s.profile_image_url,
    signed_up_at_millis: s.signed_up_at_millis,
    has_password: s.has_password,
    auth_with_email: s.auth_with_email,
    oauth_providers: s.oauth_providers,
    selected_team_id: s.selected_team_id,
    requires_totp_mfa: s.requires_totp_mfa,
    otp_auth_enabled: s.otp_auth_enabled,
    passkey_auth_enabled: s.passkey_auth_enabled,
    is_anonymous: s.is_anonymous,
    is_restricted: s.is_restricted,
    restricted_reason: s.restricted_reason,
    restricted_by_admin: s.restricted_by_admin,
    restricted_by_admin_reason: s.restricted_by_admin_reason,
    selected_team: record.selectedTeam ? renderClientTeam(record.selectedTeam) : null,
  };
}

/** The records of many users at once (a page of `GET /users`): three queries, whatever the page size. */
export async function completeUserRecords(db: Db, users: readonly UserRow[]): Promise<UserRecord[]> {
  if (users.length === 0) return [];
  const teamIds = [...new Set(users.flatMap((user) => (user.selected_team_id ? [user.selected_team_id] : [])))];
  const userIds = users.map((user) => user.id);
  const [channels, teams, links] = await Promise.all([
    db
      .selectFrom("contact_channels")
      .selectAll()
      .where("user_id", "in", userIds)
      .where("type", "=", "email")
      .where("is_primary", "=", true)
      .execute(),
    teamIds.length > 0 ? db.selectFrom("teams").selectAll().where("id", "in", teamIds).execute() : Promise.resolve([]),
    db
      .selectFrom("oauth_accounts")
      .select(["user_id", "provider_config_id", "provider_account_id", "email"])
      .where("user_id", "in", userIds)
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
  ]);
  const linksByUser = new Map<string, UserRecord["oauthAccounts"]>();
  for (const { user_id, ...link } of links) linksByUser.set(user_id, [...(linksByUser.get(user_id) ?? []), link]);
  const channelByUser = new Map(channels.map((channel) => [channel.user_id, channel]));
  const teamById = new Map(teams.map((team) => [team.id, team]));
  return users.map((user) => ({
    user,
    primaryEmail: channelByUser.get(user.id) ?? null,
    selectedTeam: (user.selected_team_id && teamById.get(user.selected_team_id)) || null,
    oauthAccounts: linksByUser.get(user.id) ?? [],
  }));
}
