import { HttpStatusError } from "@latchkey/core";
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

/** The admin view of the project, as the project layout reads it (the defaults live in its config). */
export const adminProjectKey = (projectId: string) => [...projectKey(projectId), "project"] as const;

/** What to tell the owner when the server refused: its own message (a plain-text refusal's body, if any). */
export function errorMessage(error: unknown): string {
  if (error instanceof HttpStatusError) return error.body.trim() || error.message;
  return error instanceof Error ? error.message : String(error);
}
