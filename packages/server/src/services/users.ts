import { KnownErrors } from "@latchkey/protocol/errors";
import type { Selectable } from "kysely";
import type { Db } from "../db/connect.js";
import type { ContactChannelsTable, TeamsTable } from "../db/schema.js";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import type { ProjectRow } from "./projects.js";
import { findUserRow, type UserRow } from "./user-rows.js";

type ChannelRow = Selectable<ContactChannelsTable>;
type TeamRow = Selectable<TeamsTable>;

/** A user with what its read shapes need: the primary email channel and the selected team. */
export interface UserRecord {
  user: UserRow;
  primaryEmail: ChannelRow | null;
  selectedTeam: TeamRow | null;
}

export interface NewUser {
  displayName?: string | null;
  profileImageUrl?: string | null;
  clientMetadata?: unknown;
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
  primaryEmail?: string | null;
  primaryEmailVerified?: boolean;
  /** Whether the primary email signs in (password, OTP); unique per project among auth emails. */
  primaryEmailAuthEnabled?: boolean;
  /** Already hashed (see crypto/passwords.ts). */
  passwordHash?: string | null;
  totpSecret?: Uint8Array | null;
  otpAuthEnabled?: boolean;
  passkeyAuthEnabled?: boolean;
  isAnonymous?: boolean;
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/** Whether a database error is a unique-constraint violation (PostgreSQL and PGlite alike). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code !== "23505") return false;
  return !constraint || e.constraint === constraint || (e.message ?? "").includes(constraint);
}

/**
 * Creates a user in one transaction: the row, the primary email channel, and — when the project asks for
 * it — a personal team that becomes the selected team. A sign-in email taken by another account is
 * USER_EMAIL_ALREADY_EXISTS, decided by the database's unique index so concurrent sign-ups cannot both win.
 */
export async function createUser(db: Db, project: ProjectRow, input: NewUser): Promise<UserRow> {
  const config = renderProjectConfig(project.config_override as ConfigObject);
  try {
    return await db.transaction().execute(async (trx) => {
      const user = await trx
        .insertInto("users")
        .values({
          project_id: project.id,
          display_name: input.displayName ?? null,
          profile_image_url: input.profileImageUrl ?? null,
          password_hash: input.passwordHash ?? null,
          totp_secret: input.totpSecret ?? null,
          otp_auth_enabled: input.otpAuthEnabled ?? false,
          passkey_auth_enabled: input.passkeyAuthEnabled ?? false,
          is_anonymous: input.isAnonymous ?? false,
          client_metadata: json(input.clientMetadata),
          client_read_only_metadata: json(input.clientReadOnlyMetadata),
          server_metadata: json(input.serverMetadata),
          selected_team_id: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (input.primaryEmail) {
        await trx
          .insertInto("contact_channels")
          .values({
            project_id: project.id,
            user_id: user.id,
            type: "email",
            value: input.primaryEmail,
            is_verified: input.primaryEmailVerified ?? false,
            is_primary: true,
            used_for_auth: input.primaryEmailAuthEnabled ?? true,
          })
          .execute();
      }
      if (config.teams.createPersonalTeamOnSignUp && !input.isAnonymous) {
        const name = input.displayName ?? input.primaryEmail ?? "Personal";
        const team = await trx
          .insertInto("teams")
          .values({ project_id: project.id, display_name: `${name}'s Team`, profile_image_url: null, client_metadata: null, client_read_only_metadata: null, server_metadata: null })
          .returning("id")
          .executeTakeFirstOrThrow();
        await trx.insertInto("team_members").values({ project_id: project.id, team_id: team.id, user_id: user.id, display_name: null, profile_image_url: null }).execute();
        return trx.updateTable("users").set({ selected_team_id: team.id }).where("id", "=", user.id).returningAll().executeTakeFirstOrThrow();
      }
      return user;
    });
  } catch (error) {
    if (input.primaryEmail && isUniqueViolation(error, "contact_channels_auth_value")) {
      throw new KnownErrors.UserWithEmailAlreadyExists(input.primaryEmail);
    }
    throw error;
  }
}

/** The user that signs in with this email in the project, if any. */
export async function findUserByAuthEmail(db: Db, projectId: string, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom("contact_channels")
    .innerJoin("users", "users.id", "contact_channels.user_id")
    .selectAll("users")
    .where("contact_channels.project_id", "=", projectId)
    .where("contact_channels.type", "=", "email")
    .where("contact_channels.value", "=", email)
    .where("contact_channels.used_for_auth", "=", true)
    .executeTakeFirst();
}

export async function loadUserRecord(db: Db, projectId: string, userId: string): Promise<UserRecord> {
  const user = await findUserRow(db, projectId, userId);
  if (!user) throw new KnownErrors.UserNotFound();
  return completeUserRecord(db, user);
}

export async function completeUserRecord(db: Db, user: UserRow): Promise<UserRecord> {
  const [primaryEmail, selectedTeam] = await Promise.all([
    db.selectFrom("contact_channels").selectAll().where("user_id", "=", user.id).where("type", "=", "email").where("is_primary", "=", true).executeTakeFirst(),
    user.selected_team_id ? db.selectFrom("teams").selectAll().where("id", "=", user.selected_team_id).executeTakeFirst() : undefined,
  ]);
  return { user, primaryEmail: primaryEmail ?? null, selectedTeam: selectedTeam ?? null };
}

function clientTeam(team: TeamRow) {
  return {
    id: team.id,
    display_name: team.display_name,
    profile_image_url: team.profile_image_url,
    client_metadata: team.client_metadata ?? null,
    client_read_only_metadata: team.client_read_only_metadata ?? null,
  };
}

function serverTeam(team: TeamRow) {
  return { ...clientTeam(team), created_at_millis: team.created_at.getTime(), server_metadata: team.server_metadata ?? null };
}

/** The server read shape of a user (server and admin callers, and `/users/me` with server access). */
export function renderServerUser({ user, primaryEmail, selectedTeam }: UserRecord) {
  return {
    id: user.id,
    primary_email: primaryEmail?.value ?? null,
    primary_email_verified: primaryEmail?.is_verified ?? false,
    primary_email_auth_enabled: primaryEmail?.used_for_auth ?? false,
    display_name: user.display_name,
    selected_team: selectedTeam ? serverTeam(selectedTeam) : null,
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
    oauth_providers: [] as Array<{ id: string; account_id: string; email: string | null }>,
    auth_with_email: primaryEmail?.used_for_auth ?? false,
    requires_totp_mfa: user.totp_secret !== null,
  };
}

/** The client read shape: what a signed-in user may see of themself. */
export function renderClientUser(record: UserRecord) {
  const s = renderServerUser(record);
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
    selected_team: record.selectedTeam ? clientTeam(record.selectedTeam) : null,
  };
}
