import type { ColumnType } from "kysely";

/** Table types of the permission grants (migrations/0009_permissions.sql); part of `Database` in schema.ts. */

type CreatedAt = ColumnType<Date, Date | undefined, never>;

export interface TeamMemberPermissionsTable {
  project_id: string;
  team_id: string;
  user_id: string;
  permission_id: string;
  created_at: CreatedAt;
}

export interface ProjectUserPermissionsTable {
  project_id: string;
  user_id: string;
  permission_id: string;
  created_at: CreatedAt;
}

export interface PermissionTables {
  team_member_permissions: TeamMemberPermissionsTable;
  project_user_permissions: ProjectUserPermissionsTable;
}
