import type { AdminApp, EmailThemeChoice } from "@latchkey/core";
import { useQuery } from "@tanstack/react-query";
import { projectKey } from "../../../project-admin.js";

/** The Emails page's query keys, under the project's so a deleted project forgets them too. */
export const emailKeys = {
  all: (projectId: string) => [...projectKey(projectId), "emails"] as const,
  themes: (projectId: string) => [...emailKeys.all(projectId), "themes"] as const,
  theme: (projectId: string, themeId: string) => [...emailKeys.themes(projectId), themeId] as const,
  templates: (projectId: string) => [...emailKeys.all(projectId), "templates"] as const,
  drafts: (projectId: string) => [...emailKeys.all(projectId), "drafts"] as const,
  sent: (projectId: string) => [...emailKeys.all(projectId), "sent"] as const,
};

export function useEmailThemes(admin: AdminApp, projectId: string) {
  return useQuery({ queryKey: emailKeys.themes(projectId), queryFn: () => admin.listEmailThemes() });
}

/**
 * A theme choice as a `<select>` value: "" is the project's selected theme (no choice of its own), "none"
 * is no theme at all, anything else a theme id.
 */
export const themeChoiceToValue = (choice: EmailThemeChoice | undefined): string => (choice === undefined ? "" : choice === false ? "none" : choice);
export const themeChoiceFromValue = (value: string): EmailThemeChoice | null => (value === "" ? null : value === "none" ? false : value);

/** The built-in themes (issue 19), which cannot be deleted. */
export const BUILT_IN_THEME_IDS: readonly string[] = ["1df07ae6-abf3-4a40-83a5-a1a2cbe336ac", "a0172b5d-cff0-463b-83bb-85124697373a"];

/** The built-in templates, one per mail Latchkey sends itself (the protocol's ids), which cannot be deleted. */
export const BUILT_IN_TEMPLATE_IDS: readonly string[] = [
  "e7d009ce-8d47-4528-b245-5bf119f2ffa3",
  "a70fb3a4-56c1-4e42-af25-49d25603abd0",
  "822687fe-8d0a-4467-a0d1-416b6e639478",
  "e84de395-2076-4831-9c19-8e9a96a868e4",
  "066dd73c-36da-4fd0-b6d6-ebf87683f8bc",
];
