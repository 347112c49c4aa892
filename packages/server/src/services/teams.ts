import { KnownErrors } from "@latchkey/protocol/errors";
import { isUuid, type TeamClientRead, type TeamServerRead } from "@latchkey/protocol/schemas";
import { sql, type Selectable, type SqlBool, type Updateable } from "kysely";
import type { Db } from "../db/connect.js";
import type { TeamsTable } from "../db/schema.js";
import type { ProjectRow } from "./projects.js";
import { saveProfileImage, type ProfileImageChange } from "./profile-images.js";
import { assertMembership, assertTeamExists, assertTeamPermission, assertUserExists, inTransaction, signedInUserId, type TeamActor } from "./team-access.js";
import { grantDefaultTeamPermissions } from "./team-permission-checks.js";
import { batchingWebhookEvents, emitWebhookEvents, membershipEvent, teamEventData } from "./webhook-outbox.js";

/**
 * Teams (SPEC.md §7 "Teams"): create, read, list, update and delete. A client acts as its signed-in user,
 * who must be a member (and hold `$update_team` / `$delete_team` to change the team); servers and admins
 * act on any team of the project.
 */

export type TeamRow = Selectable<TeamsTable>;

export function renderClientTeam(team: TeamRow): TeamClientRead {
  return {
    id: team.id,
    display_name: team.display_name,
    profile_image_url: team.profile_image_url,
    client_metadata: team.client_metadata ?? null,
    client_read_only_metadata: team.client_read_only_metadata ?? null,
  };
}

export function renderServerTeam(team: TeamRow): TeamServerRead {
  return { ...renderClientTeam(team), created_at_millis: team.created_at.getTime(), server_metadata: team.server_metadata ?? null };
}

export interface TeamFields {
  displayName?: string;
  /** Checked by checkProfileImageUrl; an uploaded image is stored outside the row (services/profile-images.ts). */
  profileImage?: ProfileImageChange;
  clientMetadata?: unknown;
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/**
 * Creates a team in one transaction. With a creator, the creator joins it with the project's creator
 * default permissions; USER_NOT_FOUND when the creator is not a user of the project, and then no team is
 * left behind. As in the protocol, the creator's selected team stays as it was: a client that wants the
 * new team selected says so with its own `PATCH /users/me` (the reference's SDK and our core client do).
 */
export async function createTeam(db: Db, project: ProjectRow, input: TeamFields & { displayName: string; creatorUserId: string | null }): Promise<TeamRow> {
  return inTransaction(db, (trx) => batchingWebhookEvents(trx, project.id, async () => {
    if (input.creatorUserId) await assertUserExists(trx, project.id, input.creatorUserId, "keyShare");
    let team = await trx
      .insertInto("teams")
      .values({
        project_id: project.id,
        display_name: input.displayName,
        profile_image_url: null,
        client_metadata: json(input.clientMetadata),
        client_read_only_metadata: json(input.clientReadOnlyMetadata),
        server_metadata: json(input.serverMetadata),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // An uploaded image belongs to the team, so it is stored once the row exists.
    if (input.profileImage) {
      const profileImageUrl = await saveProfileImage(trx, project.id, { teamId: team.id }, input.profileImage);
      team = await trx.updateTable("teams").set({ profile_image_url: profileImageUrl }).where("id", "=", team.id).returningAll().executeTakeFirstOrThrow();
    }
    if (input.creatorUserId) await joinAsCreator(trx, project, team.id, input.creatorUserId);
    const created = team;
    await emitWebhookEvents(trx, project.id, () => [
      { type: "team.created", data: teamEventData(created) },
      ...(input.creatorUserId ? [membershipEvent("team_membership.created", created.id, input.creatorUserId)] : []),
    ]);
    return team;
  }));
}

/** The creator's membership and their creator permissions. */
async function joinAsCreator(trx: Db, project: ProjectRow, teamId: string, userId: string): Promise<void> {
  await trx.insertInto("team_members").values({ project_id: project.id, team_id: teamId, user_id: userId, display_name: null, profile_image_url: null }).execute();
  await grantDefaultTeamPermissions(trx, project, teamId, userId, "creator");
}

/** A team as its reader may see it: a client only a team its user is in. */
export async function readTeam(db: Db, projectId: string, actor: TeamActor, teamId: string): Promise<TeamRow> {
  if (actor.type === "client") await assertMembership(db, projectId, teamId, signedInUserId(actor));
  const team = await db.selectFrom("teams").selectAll().where("project_id", "=", projectId).where("id", "=", teamId).executeTakeFirst();
  if (!team) throw new KnownErrors.TeamNotFound(teamId);
  return team;
}

export interface TeamListOptions {
  /** Only the teams this user is a member of. */
  memberUserId?: string;
  /** The id of the page's first team (the previous page's `nextCursor`). */
  cursor?: string;
  /** Page size; every team when omitted. */
  limit?: number;
  /** Newest first; otherwise oldest first. */
  desc?: boolean;
  /** A case-insensitive substring of the display name, or the team's id. */
  query?: string;
}

/**
 * The project's teams, or those the user is a member of, oldest first (or a page of them), keyset-paginated on
 * (created_at, id) as users are: the cursor row's position is read in SQL. An unknown cursor gives an empty page.
 */
export async function listTeamsPage(db: Db, projectId: string, options: TeamListOptions): Promise<{ teams: TeamRow[]; nextCursor: string | null }> {
  const direction = options.desc ? "desc" : "asc";
  let query = db.selectFrom("teams").selectAll("teams").where("teams.project_id", "=", projectId);
  const memberUserId = options.memberUserId;
  if (memberUserId) {
    query = query.where((eb) =>
      eb.exists(eb.selectFrom("team_members").select("team_members.user_id").whereRef("team_members.team_id", "=", "teams.id").where("team_members.user_id", "=", memberUserId)),
    );
  }
  if (options.query) {
    const pattern = `%${options.query.replace(/[\\%_]/g, "\\$&")}%`;
    const id = options.query.toLowerCase();
    query = query.where((eb) => eb.or([eb("teams.display_name", "ilike", pattern), ...(isUuid(id) ? [eb("teams.id", "=", id)] : [])]));
  }
  if (options.cursor) {
    const anchor = await db.selectFrom("teams").select("id").where("project_id", "=", projectId).where("id", "=", options.cursor.toLowerCase()).executeTakeFirst();
    if (!anchor) return { teams: [], nextCursor: null };
    const comparison = options.desc ? sql.raw("<=") : sql.raw(">=");
    query = query.where(sql<SqlBool>`(teams.created_at, teams.id) ${comparison} (select anchor.created_at, anchor.id from teams as anchor where anchor.id = ${anchor.id})`);
  }
  query = query.orderBy("teams.created_at", direction).orderBy("teams.id", direction);
  if (options.limit !== undefined) query = query.limit(options.limit + 1);
  const rows = await query.execute();
  if (options.limit === undefined || rows.length <= options.limit) return { teams: rows, nextCursor: null };
  return { teams: rows.slice(0, options.limit), nextCursor: rows[options.limit]!.id };
}

/** Changes a team; a client's user needs `$update_team` in it. Omitted fields stay, null clears. */
export async function updateTeam(db: Db, projectId: string, actor: TeamActor, teamId: string, update: TeamFields): Promise<TeamRow> {
  return inTransaction(db, async (trx) => {
    if (actor.type === "client") await assertTeamPermission(trx, projectId, teamId, signedInUserId(actor), "$update_team");
    await assertTeamExists(trx, projectId, teamId, "keyShare");
    const columns: Updateable<TeamsTable> = {};
    if (update.displayName !== undefined) columns.display_name = update.displayName;
    if (update.profileImage) columns.profile_image_url = await saveProfileImage(trx, projectId, { teamId }, update.profileImage);
    if (update.clientMetadata !== undefined) columns.client_metadata = json(update.clientMetadata);
    if (update.clientReadOnlyMetadata !== undefined) columns.client_read_only_metadata = json(update.clientReadOnlyMetadata);
    if (update.serverMetadata !== undefined) columns.server_metadata = json(update.serverMetadata);
    const query = trx.selectFrom("teams").selectAll().where("id", "=", teamId);
    const team = Object.keys(columns).length === 0 ? await query.executeTakeFirstOrThrow() : await trx.updateTable("teams").set(columns).where("id", "=", teamId).returningAll().executeTakeFirstOrThrow();
    await emitWebhookEvents(trx, projectId, () => [{ type: "team.updated", data: teamEventData(team) }]);
    return team;
  });
}

/**
 * Deletes a team; a client's user needs `$delete_team` in it. In one transaction: the memberships with
 * their profiles and permissions go by foreign-key cascade, members who had it selected have no selected
 * team any more, and its pending invitations are withdrawn. With webhooks, `team_membership.deleted` for each
 * member and `team.deleted` are written in the same transaction.
 */
export async function deleteTeam(db: Db, projectId: string, actor: TeamActor, teamId: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (actor.type === "client") await assertTeamPermission(trx, projectId, teamId, signedInUserId(actor), "$delete_team");
    await assertTeamExists(trx, projectId, teamId, "update");
    await trx
      .deleteFrom("verification_codes")
      .where("project_id", "=", projectId)
      .where("purpose", "=", "team_invitation")
      .where(sql<string>`data->>'team_id'`, "=", teamId)
      .execute();
    // The members the cascade removes, each announced as a removed membership, and only when someone listens.
    await emitWebhookEvents(trx, projectId, async () => {
      const members = await trx.selectFrom("team_members").select("user_id").where("team_id", "=", teamId).execute();
      return [...members.map((m) => membershipEvent("team_membership.deleted", teamId, m.user_id)), { type: "team.deleted", data: { id: teamId } }];
    });
    await trx.deleteFrom("teams").where("id", "=", teamId).execute();
  });
}
