import { KnownErrors } from "@latchkey/protocol/errors";
import type { TeamInvitationDetails, TeamInvitationRead } from "@latchkey/protocol/schemas";
import { HTTPException } from "hono/http-exception";
import { sql, type SqlBool } from "kysely";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import { isUrlTrustedForProject } from "../config/hosted-pages.js";
import type { Db } from "../db/connect.js";
import { sendEmail } from "../email/send.js";
import { codeLink } from "../email/templates.js";
import type { AppDeps, RequestAuth } from "./deps.js";
import type { ProjectRow } from "../db/rows.js";
import { assertMembership, assertUserExists } from "./team-access.js";
import { loadPermissionGraph } from "./permission-definitions.js";
import { grantDefaultTeamPermissions, hasTeamPermission } from "./team-permission-checks.js";
import { findUserRow } from "./user-rows.js";
import { restrictedReasonOf, restrictionPolicy } from "./user-restrictions.js";
import { assertSendAllowed, checkVerificationCode, createVerificationCode, useVerificationCode, type Executor } from "./verification-codes.js";
import { emitWebhookEvents, membershipEvent } from "./webhook-outbox.js";

/**
 * Team invitations (SPEC.md §7 "Teams"): a code mailed as `<callback_url>?code=<code>`, made and used by
 * the one verification-code mechanism (purpose `team_invitation`, its data the team id), so an invitation
 * is accepted exactly once however many requests race it. Pending invitations are the team's unused,
 * unexpired codes; revoking one deletes its code.
 */

/** An invitation is good for a week: people read invitations later than sign-in mail. */
export const TEAM_INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INVITE_MEMBERS = "$invite_members";
const READ_MEMBERS = "$read_members";
const REMOVE_MEMBERS = "$remove_members";

interface InvitationData {
  team_id: string;
  /** Roles granted on acceptance (a Latchkey extension, issue 16); absent in invitations without. */
  permission_ids?: string[];
}

interface TeamRow {
  id: string;
  display_name: string;
}

async function findTeam(db: Executor, projectId: string, teamId: string): Promise<TeamRow> {
  const team = await db.selectFrom("teams").select(["id", "display_name"]).where("project_id", "=", projectId).where("id", "=", teamId.toLowerCase()).executeTakeFirst();
  if (!team) throw new KnownErrors.TeamNotFound(teamId);
  return team;
}

/**
 * The team whose invitations a caller works with: a server or admin any team of the project; a client only
 * a team its user belongs to (TEAM_MEMBERSHIP_NOT_FOUND, whether or not the team exists), holding each of
 * `clientPermissions` (TEAM_PERMISSION_REQUIRED naming the first one missing, checked in the given order).
 */
async function teamFor(db: Db, auth: RequestAuth, teamId: string, clientPermissions: readonly string[]): Promise<TeamRow> {
  if (auth.type === "client") {
    if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
    const [id, userId] = [teamId.toLowerCase(), auth.user.id];
    await assertMembership(db, auth.project.id, id, userId);
    for (const permission of clientPermissions) {
      if (!(await hasTeamPermission(db, auth.project.id, id, userId, permission))) throw new KnownErrors.TeamPermissionRequired(id, userId, permission);
    }
  }
  return findTeam(db, auth.project.id, teamId);
}

export async function sendTeamInvitation(
  deps: AppDeps,
  auth: RequestAuth,
  input: { teamId: string; email: string; callbackUrl: string; permissionIds?: readonly string[] },
): Promise<{ id: string }> {
  const team = await teamFor(deps.db, auth, input.teamId, [INVITE_MEMBERS]);
  const roles = await grantableRoles(deps.db, auth, team.id, input.permissionIds ?? []);
  const config = renderProjectConfig(auth.project.config_override as ConfigObject);
  if (!isUrlTrustedForProject(deps.env, auth.project.id, config, input.callbackUrl)) throw new KnownErrors.RedirectUrlNotWhitelisted();
  await assertSendAllowed(deps.db, { projectId: auth.project.id, purpose: "team_invitation", email: input.email });
  const data: InvitationData = roles.length > 0 ? { team_id: team.id, permission_ids: roles } : { team_id: team.id };
  const created = await createVerificationCode(deps.db, {
    projectId: auth.project.id,
    purpose: "team_invitation",
    data,
    expiresInMs: TEAM_INVITATION_LIFETIME_MS,
    kind: "link",
    email: input.email,
  });
  await sendEmail(deps, auth.project, {
    to: input.email,
    template: "team_invitation",
    variables: {
      teamDisplayName: team.display_name,
      teamInvitationLink: codeLink(input.callbackUrl, created.code),
      // The mail names the member who invited (a server's invitation has nobody to name).
      ...(auth.type === "client" && auth.user?.display_name ? { inviterDisplayName: auth.user.display_name } : {}),
    },
  });
  return { id: created.id };
}

/**
 * The roles an invitation may carry: each a team permission the project defines (the protocol's errors for an
 * unknown id or one of the project scope), and for a client's user one it holds itself, directly or contained
 * in one it holds (TEAM_PERMISSION_REQUIRED naming it): nobody hands out more than they have.
 */
async function grantableRoles(db: Db, auth: RequestAuth, teamId: string, ids: readonly string[]): Promise<string[]> {
  const roles = [...new Set(ids)];
  if (roles.length === 0) return roles;
  const graph = await loadPermissionGraph(db, auth.project.id);
  for (const id of roles) {
    if (graph.get("team", id)) continue;
    const scope = graph.scopeOf(id);
    throw scope ? new KnownErrors.PermissionScopeMismatch(id, "team", scope) : new KnownErrors.PermissionNotFound(id);
  }
  if (auth.type === "client") {
    const userId = auth.user!.id;
    for (const id of roles) {
      if (!(await hasTeamPermission(db, auth.project.id, teamId, userId, id))) throw new KnownErrors.TeamPermissionRequired(teamId, userId, id);
    }
  }
  return roles;
}

/** The team's pending invitations, oldest first. A client's user needs `$read_members`, then `$invite_members`. */
export async function listTeamInvitations(db: Db, auth: RequestAuth, teamId: string): Promise<TeamInvitationRead[]> {
  const team = await teamFor(db, auth, teamId, [READ_MEMBERS, INVITE_MEMBERS]);
  const rows = await pendingInvitations(db, auth.project.id, team.id).select(["id", "email", "expires_at"]).orderBy("created_at").orderBy("id").execute();
  return rows.map((row) => invitationRead(row, team));
}

/**
 * Revokes a pending invitation of the team; its link then answers VERIFICATION_CODE_NOT_FOUND. A client's
 * user needs `$remove_members`, as in the protocol.
 */
export async function revokeTeamInvitation(db: Db, auth: RequestAuth, input: { teamId: string; invitationId: string }): Promise<void> {
  const team = await teamFor(db, auth, input.teamId, [REMOVE_MEMBERS]);
  const isUuid = UUID.test(input.invitationId);
  const deleted = isUuid
    ? await db
        .deleteFrom("verification_codes")
        .where("id", "=", input.invitationId.toLowerCase())
        .where("project_id", "=", auth.project.id)
        .where("purpose", "=", "team_invitation")
        .where(sql<string>`data->>'team_id'`, "=", team.id)
        .where("used_at", "is", null)
        .executeTakeFirst()
    : undefined;
  // The protocol has no known error for a missing invitation.
  if (!deleted || Number(deleted.numDeletedRows) === 0) throw new HTTPException(404, { message: "Team invitation not found." });
}

function pendingInvitations(db: Db, projectId: string, teamId: string) {
  return db
    .selectFrom("verification_codes")
    .where("project_id", "=", projectId)
    .where("purpose", "=", "team_invitation")
    .where(sql<string>`data->>'team_id'`, "=", teamId)
    .where("used_at", "is", null)
    .where("expires_at", ">", new Date());
}

/** `accept/check-code`: whether the code can still be used; nothing changes. */
export async function checkTeamInvitation(db: Db, projectId: string, code: string): Promise<void> {
  await checkVerificationCode(db, { projectId, purpose: "team_invitation", code });
}

/** `accept/details`: the team a usable code invites to (for the signed-in user about to accept it). */
export async function teamInvitationDetails(db: Db, auth: RequestAuth, code: string): Promise<TeamInvitationDetails> {
  if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
  const data = (await checkVerificationCode(db, { projectId: auth.project.id, purpose: "team_invitation", code })) as InvitationData;
  const team = await findTeam(db, auth.project.id, data.team_id);
  return { team_id: team.id, team_display_name: team.display_name };
}

/**
 * `accept`: the signed-in user joins the team with the member default permissions, in the transaction
 * that uses the code. Someone who is already a member uses the code up and stays as they are, as the
 * protocol does (the invitation has done its job).
 */
export async function acceptTeamInvitation(db: Db, auth: RequestAuth, code: string): Promise<void> {
  const user = auth.user;
  if (!user) throw new KnownErrors.UserAuthenticationRequired();
  await useVerificationCode(db, { projectId: auth.project.id, purpose: "team_invitation", code }, async (data, trx) => {
    await joinInvitedTeam(trx, auth.project, data as InvitationData, user.id);
  });
}

/**
 * The user joins the invitation's team as a member, with the member defaults and the invitation's roles,
 * unless already one (a member keeps their roles as they are).
 */
async function joinInvitedTeam(trx: Executor, project: ProjectRow, invitation: InvitationData, userId: string): Promise<void> {
  const team = await findTeam(trx, project.id, invitation.team_id);
  const joined = await trx
    .insertInto("team_members")
    .values({ project_id: project.id, team_id: team.id, user_id: userId, display_name: null, profile_image_url: null })
    .onConflict((oc) => oc.columns(["team_id", "user_id"]).doNothing())
    .returning("user_id")
    .executeTakeFirst();
  if (!joined) return;
  await emitWebhookEvents(trx, project.id, () => [membershipEvent("team_membership.created", team.id, userId)]);
  await grantDefaultTeamPermissions(trx, project, team.id, userId, "member", invitation.permission_ids ?? []);
}

/*
 * Invitations a user received (2.8.108): the pending invitations addressed to any of the user's verified
 * email addresses, which the user can accept by id, without the mailed code: proving the address is what
 * the code stood for.
 */

/** The user's verified addresses, lowercase as invitations store theirs. */
function verifiedEmailsOf(db: Executor, projectId: string, userId: string) {
  return db
    .selectFrom("contact_channels")
    .select(sql<string>`lower(value)`.as("email"))
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .where("type", "=", "email")
    .where("is_verified", "=", true);
}

/** The pending invitations addressed to the user's verified emails, oldest first (USER_NOT_FOUND for an unknown user). */
export async function listReceivedTeamInvitations(db: Db, projectId: string, userId: string): Promise<TeamInvitationRead[]> {
  await assertUserExists(db, projectId, userId);
  const rows = await db
    .selectFrom("verification_codes")
    .innerJoin("teams", (join) => join.on(sql<SqlBool>`teams.id::text = verification_codes.data->>'team_id'`))
    .select(["verification_codes.id", "verification_codes.email", "verification_codes.expires_at", "teams.id as team_id", "teams.display_name"])
    .where("verification_codes.project_id", "=", projectId)
    .where("teams.project_id", "=", projectId)
    .where("verification_codes.purpose", "=", "team_invitation")
    .where("verification_codes.used_at", "is", null)
    .where("verification_codes.expires_at", ">", new Date())
    .where("verification_codes.email", "in", verifiedEmailsOf(db, projectId, userId))
    .orderBy("verification_codes.created_at")
    .orderBy("verification_codes.id")
    .execute();
  return rows.map((row) => invitationRead(row, { id: row.team_id, display_name: row.display_name }));
}

/**
 * Accepts a received invitation by its id: the user joins the team as with the mailed code, and the code is
 * used up. A restricted user (anonymous, or held back until their email is verified) is refused first;
 * then an invitation that is not pending answers a plain 404, as revoking one does (the protocol has no known
 * error for it); then one addressed to an address the user has not verified, TEAM_INVITATION_EMAIL_MISMATCH.
 * The invitation's row is locked, so it is accepted once however many requests race.
 */
export async function acceptReceivedTeamInvitation(db: Db, project: ProjectRow, userId: string, invitationId: string): Promise<void> {
  const user = await findUserRow(db, project.id, userId);
  if (!user) throw new KnownErrors.UserNotFound();
  const primaryEmail = await db
    .selectFrom("contact_channels")
    .selectAll()
    .where("user_id", "=", user.id)
    .where("type", "=", "email")
    .where("is_primary", "=", true)
    .executeTakeFirst();
  const restricted = restrictedReasonOf(user, primaryEmail ?? null, restrictionPolicy(project));
  if (restricted) throw new KnownErrors.TeamInvitationRestrictedUserNotAllowed(restricted);
  const notFound = () => new HTTPException(404, { message: "Team invitation not found." });
  if (!UUID.test(invitationId)) throw notFound();
  await db.transaction().execute(async (trx) => {
    const invitation = await trx
      .selectFrom("verification_codes")
      .select(["id", "email", "data"])
      .where("id", "=", invitationId.toLowerCase())
      .where("project_id", "=", project.id)
      .where("purpose", "=", "team_invitation")
      .where("used_at", "is", null)
      .where("expires_at", ">", new Date())
      .forUpdate()
      .executeTakeFirst();
    if (!invitation) throw notFound();
    const addressed = await verifiedEmailsOf(trx, project.id, user.id).where(sql<string>`lower(value)`, "=", invitation.email ?? "").executeTakeFirst();
    if (!addressed) throw new KnownErrors.TeamInvitationEmailMismatch();
    await trx.updateTable("verification_codes").set({ used_at: new Date() }).where("id", "=", invitation.id).execute();
    await joinInvitedTeam(trx, project, invitation.data as InvitationData, user.id);
  });
}

/** An invitation as the protocol reads it (`team_display_name` only reaches 2.8.108 requests). */
function invitationRead(row: { id: string; email: string | null; expires_at: Date }, team: { id: string; display_name: string }): TeamInvitationRead {
  return { id: row.id, team_id: team.id, team_display_name: team.display_name, expires_at_millis: row.expires_at.getTime(), recipient_email: row.email ?? "" };
}
