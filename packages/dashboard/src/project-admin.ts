import { createAdminApp, type AdminApp, type ClientApp } from "@latchkey/core";
import { useApp } from "@latchkey/react";
import { useParams } from "@tanstack/react-router";
import { useMemo } from "react";

/**
 * The admin app of one of the owner's projects: every project page talks to the server through it. It
 * authenticates as the project's owner with the dashboard's own session on the `internal` project (no admin
 * key in the browser), so signing out of the dashboard ends every project's access too.
 */
export function useProjectAdmin(projectId: string): AdminApp {
  const dashboard = useApp();
  return useMemo(() => projectAdmin(dashboard, projectId), [projectId, dashboard]);
}

/** The same outside a component (right after creating a project, before its pages are open). */
export function projectAdmin(dashboard: ClientApp, projectId: string): AdminApp {
  return createAdminApp({ projectId, baseUrl: dashboard.baseUrl ?? window.location.origin, projectOwnerSession: dashboard.session });
}

/** Query keys of a project's data start with this, so a project's deletion forgets all of it at once. */
export const projectKey = (projectId: string) => ["project", projectId] as const;

/**
 * The admin view of the project (its name and config), as the project layout reads it for the heading: the
 * pages that show or change the config use the same key, so a saved change shows everywhere at once.
 */
export const adminProjectKey = (projectId: string) => [...projectKey(projectId), "project"] as const;

/**
 * The `$projectId` of the current project route. Read loosely (not typed from the route tree), so the lazily
 * loaded pages do not import the router that imports them.
 */
export function useProjectId(): string {
  const { projectId } = useParams({ strict: false }) as { projectId?: string };
  if (!projectId) throw new Error("useProjectId() is for the pages under /projects/$projectId.");
  return projectId;
}
