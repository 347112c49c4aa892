import type { Db } from "../db/connect.js";
import { INTERNAL_PROJECT_ID } from "./projects.js";

/**
 * The primary addresses of a project's admins: the members of the internal project's team that owns it, as
 * the dashboard's owners are. Who gets the mail about the project itself (an endpoint disabled, failed sends).
 */
export async function projectAdminAddresses(db: Db, projectId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("projects")
    .innerJoin("team_members", (join) => join.onRef("team_members.team_id", "=", "projects.owner_team_id").on("team_members.project_id", "=", INTERNAL_PROJECT_ID))
    .innerJoin("contact_channels", (join) =>
      join.onRef("contact_channels.user_id", "=", "team_members.user_id").on("contact_channels.type", "=", "email").on("contact_channels.is_primary", "=", true),
    )
    .select("contact_channels.value")
    .where("projects.id", "=", projectId)
    .execute();
  return rows.map((row) => row.value);
}
