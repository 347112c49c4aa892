import { expect } from "vitest";
import type { Db } from "../../src/db/connect.js";
import type { TestProject } from "./test-server.js";
import { as, configure, createUser, signIn, type Tokens } from "./users-fixture.js";

/** Shared setup of the teams suites: projects configured for teams, users signed in, teams made over HTTP. */

export const SYSTEM_TEAM_PERMISSIONS = ["$update_team", "$delete_team", "$read_members", "$remove_members", "$invite_members", "$manage_api_keys"];
export const CLIENT_TEAM_KEYS = ["client_metadata", "client_read_only_metadata", "display_name", "id", "profile_image_url"];
export const SERVER_TEAM_KEYS = [...CLIENT_TEAM_KEYS, "created_at_millis", "server_metadata"].sort();

/**
 * Clients may create teams; a creator holds every system permission, a plain member none (each test that
 * needs a member permission grants it through the config).
 */
export async function configureTeams(project: TestProject, options: { creator?: string[]; member?: string[]; clientCreation?: boolean } = {}) {
  const set = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, true]));
  await configure(project, {
    "teams.allowClientTeamCreation": options.clientCreation ?? true,
    "rbac.defaultPermissions.teamCreator": set(options.creator ?? SYSTEM_TEAM_PERMISSIONS),
    "rbac.defaultPermissions.teamMember": set(options.member ?? []),
  });
}

export interface SignedInUser {
  id: string;
  tokens: Tokens;
}

export async function signedInUser(project: TestProject, body: Record<string, unknown> = {}): Promise<SignedInUser> {
  const user = await createUser(project, body);
  return { id: user.id, tokens: await signIn(project, user.id) };
}

/** A team created by the server, with `creator` (if any) as its creator. */
export async function serverTeam(project: TestProject, body: Record<string, unknown> = {}): Promise<any> {
  const response = await as(project, "server", "/teams", { method: "POST", body: { display_name: "Team", ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

export async function addMember(project: TestProject, teamId: string, userId: string) {
  const response = await as(project, "server", `/team-memberships/${teamId}/${userId}`, { method: "POST", body: {} });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

/** The member's team permission ids, straight from the table the permission checks read. */
export async function permissionsOf(db: Db, teamId: string, userId: string): Promise<string[]> {
  const rows = await db.selectFrom("team_member_permissions").select("permission_id").where("team_id", "=", teamId).where("user_id", "=", userId).execute();
  return rows.map((r) => r.permission_id).sort();
}
