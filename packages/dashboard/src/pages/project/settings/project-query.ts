import type { AdminApp } from "@latchkey/core";
import { adminProjectKey } from "../../../project-admin.js";

/** The project itself, under the key the project layout reads it with, so the heading follows every change. */
export const projectQuery = (projectId: string, admin: AdminApp) => ({
  queryKey: adminProjectKey(projectId),
  queryFn: () => admin.getAdminProject(),
});

/** The signed-in owner's teams, which a project can be moved to. */
export const ownerTeamsKey = (userId: string) => ["owner-teams", userId] as const;
