import { sql, type Kysely, type Transaction } from "kysely";
import { renderProjectConfig, type ConfigObject, type ProjectConfig } from "../config/project-config.js";
import type { Database } from "../db/schema.js";
import { inTransaction, lockPermissionGraph, permissionGraphAt, projectRowVersion } from "./permission-definitions.js";
import type { ProjectRow } from "./projects.js";
import { emitWebhookEvents } from "./webhook-outbox.js";

/**
 * The two team-permission operations the teams module needs: granting a new member the project's default
 * set, and checking a member's permission (`$update_team`, `$read_members`, …) before acting for them.
 */

type Executor = Kysely<Database> | Transaction<Database>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Grants the project's default team permissions to a member: "creator" when they created the team, else
 * "member"; plus `extra` (the roles an invitation carries, issue 16).
 */
export async function grantDefaultTeamPermissions(
  db: Executor,
  project: ProjectRow,
  teamId: string,
  userId: string,
  role: "creator" | "member",
  extra: readonly string[] = [],
): Promise<void> {
  const set = (defaults: ProjectConfig["rbac"]["defaultPermissions"]) => (role === "creator" ? defaults.teamCreator : defaults.teamMember);
  // Most projects set no defaults: then there is nothing to lock or write.
  if (extra.length === 0 && Object.keys(set(renderProjectConfig(project.config_override as ConfigObject).rbac.defaultPermissions)).length === 0) return;
  await inTransaction(db, async (trx) => {
    // The sets and definitions as of the locked row, not of the (possibly cached) project row passed in.
    const graph = await lockPermissionGraph(trx, project.id);
    // A default naming a permission that is not defined (the config allows it) grants nothing; nor does an
    // invitation's role deleted since the invitation was sent.
    const wanted = [...Object.entries(set(graph.defaults)).filter(([, on]) => on).map(([id]) => id), ...extra];
    const ids = [...new Set(wanted)].filter((id) => graph.get("team", id));
    if (ids.length === 0) return;
    const granted = await trx
      .insertInto("team_member_permissions")
      .values(ids.map((permission_id) => ({ project_id: project.id, team_id: teamId, user_id: userId, permission_id })))
      .onConflict((oc) => oc.doNothing())
      .returning("permission_id")
      .execute();
    await emitWebhookEvents(trx, project.id, () => granted.map((g) => ({ type: "team_permission.created", data: { id: g.permission_id, team_id: teamId, user_id: userId } })));
  });
}

/** Whether the member holds the permission in the team, directly or through contained permissions. */
export async function hasTeamPermission(db: Executor, projectId: string, teamId: string, userId: string, permissionId: string): Promise<boolean> {
  if (!UUID.test(teamId) || !UUID.test(userId)) return false;
  // One round trip: the member's direct grants and the version of the project's permission graph.
  const row = await db
    .selectFrom("projects")
    .select([
      projectRowVersion.as("version"),
      (eb) =>
        eb
          .selectFrom("team_member_permissions")
          .select(sql<string[]>`coalesce(json_agg(permission_id), '[]'::json)`.as("ids"))
          .where("project_id", "=", projectId)
          .where("team_id", "=", teamId)
          .where("user_id", "=", userId)
          .as("direct"),
    ])
    .where("id", "=", projectId)
    .executeTakeFirst();
  const direct = (row?.direct ?? []) as string[];
  if (!row || direct.length === 0) return false;
  const graph = await permissionGraphAt(db, projectId, row.version);
  return direct.some((id) => graph.closure("team", id).has(permissionId));
}
