import { KnownError, KnownErrors } from "@latchkey/protocol/errors";
import type { Db } from "../db/connect.js";
import type { Env } from "../env.js";
import { verifyAccessToken, type AccessTokenClaims } from "../crypto/access-tokens.js";
import { createProject, INTERNAL_PROJECT_ID, isValidProjectId, writeProject, type ProjectRow, type ProjectUpdate } from "./projects.js";
import { hasTeamPermission } from "./team-permission-checks.js";
import { findUserRow, type UserRow } from "./user-rows.js";

/**
 * Project ownership (issue 3): every project but `internal` may be owned by a team of the internal
 * project, and every member of that team administers it — through the dashboard's admin access token
 * (an access token of the member's internal-project session) or the internal-project routes
 * `/internal/projects`.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an internal-project user is a member of the team; `lock` keeps the membership until the transaction ends. */
async function isInternalTeamMember(db: Db, teamId: string, userId: string, options: { lock?: boolean } = {}): Promise<boolean> {
  if (!UUID.test(teamId) || !UUID.test(userId)) return false;
  let query = db
    .selectFrom("team_members")
    .select("team_id")
    .where("project_id", "=", INTERNAL_PROJECT_ID)
    .where("team_id", "=", teamId)
    .where("user_id", "=", userId);
  if (options.lock) query = query.forShare();
  return (await query.executeTakeFirst()) !== undefined;
}

/** Projects owned by any team the internal-project user belongs to, oldest first. */
export async function listOwnedProjects(db: Db, userId: string): Promise<ProjectRow[]> {
  return db
    .selectFrom("projects")
    .innerJoin("team_members", "team_members.team_id", "projects.owner_team_id")
    .selectAll("projects")
    .where("team_members.project_id", "=", INTERNAL_PROJECT_ID)
    .where("team_members.user_id", "=", userId)
    .orderBy("projects.created_at", "asc")
    .orderBy("projects.id", "asc")
    .execute();
}

/** Whether the internal-project user belongs to the team that owns the project. */
export async function userOwnsProject(db: Db, userId: string, projectId: string): Promise<boolean> {
  if (!isValidProjectId(projectId) || !UUID.test(userId)) return false;
  const row = await db
    .selectFrom("projects")
    .innerJoin("team_members", "team_members.team_id", "projects.owner_team_id")
    .select("projects.id")
    .where("projects.id", "=", projectId.toLowerCase())
    .where("team_members.project_id", "=", INTERNAL_PROJECT_ID)
    .where("team_members.user_id", "=", userId)
    .executeTakeFirst();
  return row !== undefined;
}

export interface NewOwnedProject extends Omit<ProjectUpdate, "displayName" | "description" | "configOverride"> {
  displayName: string;
  description: string | null;
  isDevelopmentEnvironment?: boolean;
  configOverride: Record<string, unknown>;
}

/**
 * Creates a project owned by one of the user's teams; TEAM_MEMBERSHIP_NOT_FOUND when the user is not a
 * member (whether or not the team exists, so team ids of others are not confirmed). The membership is
 * held for the transaction, so the team cannot vanish between the check and the insert. No keys are made:
 * as in the protocol, the owner creates them afterwards through `/internal/api-keys` with admin access.
 */
export async function createOwnedProject(db: Db, userId: string, ownerTeamId: string, project: NewOwnedProject): Promise<ProjectRow> {
  return db.transaction().execute(async (trx) => {
    if (!(await isInternalTeamMember(trx, ownerTeamId, userId, { lock: true }))) throw new KnownErrors.TeamMembershipNotFound(ownerTeamId, userId);
    const { displayName, description, isProductionMode, isDevelopmentEnvironment, configOverride, ...rest } = project;
    const created = await createProject(trx, {
      displayName,
      description,
      isProductionMode,
      isDevelopmentEnvironment,
      ownerTeamId: ownerTeamId.toLowerCase(),
      configOverride,
    });
    // Logos and the onboarding status, when the creator set any.
    const given = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
    return Object.keys(given).length === 0 ? created : writeProject(trx, created.id, given);
  });
}

/**
 * Moves a project to another team (the protocol's rules, in its order): the project must exist, the user
 * must hold `team_admin` in the team that owns it now (TEAM_PERMISSION_REQUIRED) and be a member of the new
 * team (TEAM_MEMBERSHIP_NOT_FOUND). The project row is locked, so concurrent transfers serialize.
 */
export async function transferProject(db: Db, userId: string, projectId: string, newTeamId: string): Promise<ProjectRow> {
  return db.transaction().execute(async (trx) => {
    const project = isValidProjectId(projectId)
      ? await trx.selectFrom("projects").selectAll().where("id", "=", projectId.toLowerCase()).forUpdate().executeTakeFirst()
      : undefined;
    if (!project || !project.owner_team_id) throw new KnownErrors.ProjectNotFound(projectId);
    if (!(await hasTeamPermission(trx, INTERNAL_PROJECT_ID, project.owner_team_id, userId, "team_admin"))) {
      throw new KnownErrors.TeamPermissionRequired(project.owner_team_id, userId, "team_admin");
    }
    if (!(await isInternalTeamMember(trx, newTeamId, userId, { lock: true }))) throw new KnownErrors.TeamMembershipNotFound(newTeamId, userId);
    return trx
      .updateTable("projects")
      .set({ owner_team_id: newTeamId.toLowerCase() })
      .where("id", "=", project.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/**
 * Reads an `x-stack-admin-access-token`: it must be a valid access token (else UNPARSABLE_ADMIN_ACCESS_TOKEN,
 * or ADMIN_ACCESS_TOKEN_EXPIRED with its expiry) of the internal project (else
 * INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN). Whether its user administers a project is `adminAccessTokenOwner`,
 * asked once the project is known to exist.
 */
export async function readAdminAccessToken(env: Env, token: string): Promise<AccessTokenClaims> {
  let claims;
  try {
    // Anonymous users administer nothing: their tokens are refused like any other unusable token.
    claims = await verifyAccessToken(env, token, { allowAnonymous: false });
  } catch (error) {
    if (error instanceof KnownErrors.AccessTokenExpired) {
      const millis = (error as KnownError).details?.expired_at_millis;
      throw new KnownErrors.AdminAccessTokenExpired(typeof millis === "number" ? new Date(millis) : undefined);
    }
    if (error instanceof KnownError) throw new KnownErrors.UnparsableAdminAccessToken();
    throw error;
  }
  if (claims.project_id !== INTERNAL_PROJECT_ID) throw new KnownErrors.InvalidProjectForAdminAccessToken();
  return claims;
}

/**
 * The internal-project user an admin access token was issued to, who must still exist and belong to the
 * team owning the project (else ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN).
 */
export async function adminAccessTokenOwner(db: Db, claims: AccessTokenClaims, projectId: string): Promise<UserRow> {
  const user = await findUserRow(db, INTERNAL_PROJECT_ID, claims.sub);
  // A deleted user's still-unexpired token administers nothing.
  if (!user || !(await userOwnsProject(db, user.id, projectId))) throw new KnownErrors.AdminAccessTokenIsNotAdmin();
  return user;
}

/** Both checks of an admin access token for the project named by `x-stack-project-id`; returns its user. */
export async function verifyAdminAccessToken(db: Db, env: Env, token: string, projectId: string): Promise<UserRow> {
  return adminAccessTokenOwner(db, await readAdminAccessToken(env, token), projectId);
}
