import { projectKey } from "../../../project-admin.js";

/**
 * Query keys of the Teams, Team and Permissions pages. Every key of one team starts with the team's key, so
 * a change to the team (or its deletion) refetches or forgets all of it at once.
 */
export const teamKeys = {
  all: (projectId: string) => [...projectKey(projectId), "teams"] as const,
  team: (projectId: string, teamId: string) => [...projectKey(projectId), "teams", teamId] as const,
  members: (projectId: string, teamId: string) => [...teamKeys.team(projectId, teamId), "members"] as const,
  invitations: (projectId: string, teamId: string) => [...teamKeys.team(projectId, teamId), "invitations"] as const,
  grants: (projectId: string, teamId: string) => [...teamKeys.team(projectId, teamId), "grants"] as const,
};

export const permissionDefinitionsKey = (projectId: string, scope: "team" | "project") => [...projectKey(projectId), "permission-definitions", scope] as const;
