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
