import type { AdminProject, ConfigOverrideChange } from "@latchkey/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { adminProjectKey, projectKey, useProjectAdmin, useProjectId } from "../../../project-admin.js";

/**
 * The project's settings as the Authentication, Domains and Keys pages read and write them: the admin view of
 * the project (`adminProjectKey`: its legacy snake_case `config`) and the complete camelCase config of
 * `GET /internal/config` (this key). Each change refreshes both, since they are two views of one stored config.
 */
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
