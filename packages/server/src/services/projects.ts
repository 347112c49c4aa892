import { KnownErrors } from "@latchkey/protocol/errors";
import type { Db } from "../db/connect.js";
import type { ProjectRow } from "../db/rows.js";

export type { ProjectRow };

export const INTERNAL_PROJECT_ID = "internal";

/** Project ids are UUIDs, except the one internal project. */
export function isValidProjectId(id: string): boolean {
  return id === INTERNAL_PROJECT_ID || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
}

export async function findProject(db: Db, id: string): Promise<ProjectRow | undefined> {
  if (!isValidProjectId(id)) return undefined;
  return db.selectFrom("projects").selectAll().where("id", "=", id.toLowerCase()).executeTakeFirst();
}

export async function getProject(db: Db, id: string): Promise<ProjectRow> {
  const project = await findProject(db, id);
  if (!project) throw new KnownErrors.ProjectNotFound(id);
  return project;
}

export interface ProjectUpdate {
  displayName?: string;
  description?: string | null;
  isProductionMode?: boolean;
  logoUrl?: string | null;
  fullLogoUrl?: string | null;
  logoDarkModeUrl?: string | null;
  logoFullDarkModeUrl?: string | null;
  onboardingStatus?: string;
  configOverride?: Record<string, unknown>;
}

/**
 * Updates a project. A config change is computed from the stored override inside the same transaction,
 * with the row locked, so two concurrent edits cannot lose each other's keys; `mergeConfig` may throw to
 * reject the change, and then nothing is written.
 */
export async function updateProject(
  db: Db,
  id: string,
  update: Omit<ProjectUpdate, "configOverride">,
  mergeConfig?: (stored: Record<string, unknown>) => Record<string, unknown>,
): Promise<ProjectRow> {
  return db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("projects").select("config_override").where("id", "=", id).forUpdate().executeTakeFirst();
    if (!current) throw new KnownErrors.ProjectNotFound(id);
    const configOverride = mergeConfig ? mergeConfig(current.config_override) : undefined;
    return writeProject(trx, id, { ...update, ...(configOverride ? { configOverride } : {}) });
  });
}

/** Writes the given fields of a project (in the caller's transaction, if any); the others stay. */
export async function writeProject(db: Db, id: string, update: ProjectUpdate): Promise<ProjectRow> {
  const row = await db
    .updateTable("projects")
    .set({
      ...(update.displayName !== undefined ? { display_name: update.displayName } : {}),
      ...(update.description !== undefined ? { description: update.description } : {}),
      ...(update.isProductionMode !== undefined ? { is_production_mode: update.isProductionMode } : {}),
      ...(update.logoUrl !== undefined ? { logo_url: update.logoUrl } : {}),
      ...(update.fullLogoUrl !== undefined ? { full_logo_url: update.fullLogoUrl } : {}),
      ...(update.logoDarkModeUrl !== undefined ? { logo_dark_mode_url: update.logoDarkModeUrl } : {}),
      ...(update.logoFullDarkModeUrl !== undefined ? { logo_full_dark_mode_url: update.logoFullDarkModeUrl } : {}),
      ...(update.onboardingStatus !== undefined ? { onboarding_status: update.onboardingStatus } : {}),
      ...(update.configOverride !== undefined ? { config_override: JSON.stringify(update.configOverride) } : {}),
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new KnownErrors.ProjectNotFound(id);
  return row;
}

/**
 * What a new project starts with on top of the config defaults, as the protocol's hosted service creates
 * projects: email-and-password sign-in on and localhost allowed, so a fresh project works in development,
 * and the two team roles with their default grants.
 */
export const NEW_PROJECT_CONFIG_OVERRIDE: Record<string, unknown> = {
  "auth.password.allowSignIn": true,
  "domains.allowLocalhost": true,
  // The protocol's two team roles: a team's creator administers it, its members read and invite members.
  "rbac.permissions.team_admin": {
    description: "Default permission for team admins",
    scope: "team",
    containedPermissionIds: { $update_team: true, $delete_team: true, $read_members: true, $remove_members: true, $invite_members: true, $manage_api_keys: true },
  },
  "rbac.permissions.team_member": {
    description: "Default permission for team members",
    scope: "team",
    containedPermissionIds: { $read_members: true, $invite_members: true },
  },
  "rbac.defaultPermissions.teamCreator": { team_admin: true },
  "rbac.defaultPermissions.teamMember": { team_member: true },
};

export async function createProject(
  db: Db,
  project: {
    id?: string;
    displayName: string;
    description: string | null;
    isProductionMode?: boolean;
    isDevelopmentEnvironment?: boolean;
    ownerTeamId?: string | null;
    configOverride?: Record<string, unknown>;
  },
): Promise<ProjectRow> {
  return db
    .insertInto("projects")
    .values({
      id: project.id ?? crypto.randomUUID(),
      display_name: project.displayName,
      description: project.description,
      is_production_mode: project.isProductionMode ?? false,
      is_development_environment: project.isDevelopmentEnvironment ?? false,
      owner_team_id: project.ownerTeamId ?? null,
      logo_url: null,
      full_logo_url: null,
      config_override: JSON.stringify(project.configOverride ?? NEW_PROJECT_CONFIG_OVERRIDE),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deleting a project removes everything it owns (the foreign keys cascade) in one statement. */
export async function deleteProject(db: Db, id: string): Promise<void> {
  const result = await db.deleteFrom("projects").where("id", "=", id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new KnownErrors.ProjectNotFound(id);
}
