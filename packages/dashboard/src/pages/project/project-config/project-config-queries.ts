import { HttpStatusError, type AdminProject, type ConfigOverrideChange } from "@latchkey/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { projectKey, useProjectAdmin, useProjectId } from "../../../project-admin.js";

/**
 * The project's settings as the Authentication, Domains and Keys pages read and write them: the admin view of
 * the project (its legacy snake_case `config`, also what the project layout shows the name from) and the
 * complete camelCase config of `GET /internal/config`. Each change refreshes both, since they are two views
 * of one stored config.
 */
export const adminProjectKey = (projectId: string) => [...projectKey(projectId), "project"] as const;
export const projectConfigKey = (projectId: string) => [...projectKey(projectId), "config"] as const;

/** The legacy admin config: the switches, OAuth providers and trusted domains. */
export type LegacyConfig = AdminProject["config"];

export function useProjectSettings() {
  const projectId = useProjectId();
  const admin = useProjectAdmin(projectId);
  return { projectId, admin };
}

export function useAdminProject() {
  const { projectId, admin } = useProjectSettings();
  return useQuery({ queryKey: adminProjectKey(projectId), queryFn: () => admin.getAdminProject() });
}

export function useProjectConfig() {
  const { projectId, admin } = useProjectSettings();
  return useQuery({ queryKey: projectConfigKey(projectId), queryFn: () => admin.getConfig() });
}

/** Saves legacy config fields (`PATCH /internal/projects/current`); omitted fields stay as they are. */
export function useLegacyConfigUpdate() {
  const { projectId, admin } = useProjectSettings();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (config: Record<string, unknown>) => admin.updateAdminProject({ config }),
    onSuccess: async (project) => {
      queryClient.setQueryData(adminProjectKey(projectId), project);
      await queryClient.invalidateQueries({ queryKey: projectConfigKey(projectId) });
    },
  });
}

/** Merges a change over the project's config override (`PATCH /internal/config/override`). */
export function useConfigOverrideUpdate() {
  const { projectId, admin } = useProjectSettings();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ConfigOverrideChange) => admin.updateConfigOverride(change),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: projectConfigKey(projectId) }),
        queryClient.invalidateQueries({ queryKey: adminProjectKey(projectId) }),
      ]),
  });
}

/**
 * What to tell the owner when the server refused: its own message. Plain-text refusals (a config override the
 * schema rejects) arrive as an HttpStatusError whose body is that message.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof HttpStatusError) return error.body.trim() || error.message;
  return error instanceof Error ? error.message : String(error);
}
