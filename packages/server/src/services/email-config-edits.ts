import type { Db } from "../db/connect.js";
import type { ProjectRow } from "../db/rows.js";
import { overrideConfig, renderProjectConfig, type ConfigObject, type ConfigOverride, type ProjectConfig } from "../config/project-config.js";
import { updateProject } from "./projects.js";

/**
 * Themes and templates live in the project's config (`emails.themes`, `emails.templates`, with the built-in ones
 * merged in), as in the protocol's reference, so `GET /internal/config` and `PATCH /internal/config/override`
 * see and edit the same entries the e-mail routes do.
 */

/** The project's complete config as of the row the request loaded. */
export function emailConfigOf(project: ProjectRow): ProjectConfig["emails"] {
  return renderProjectConfig(project.config_override as ConfigObject).emails;
}

/**
 * Changes the project's config override the way `PATCH /internal/config/override` does: `change` sees the
 * complete config rendered from the stored override (row locked, in one transaction) and returns the keys to
 * layer over it (dotted keys; `null` removes). It may throw to refuse, and then nothing is written. The request
 * pipeline makes the project cache forget the old row before the answer goes out.
 */
export async function editEmailConfig<T>(
  db: Db,
  projectId: string,
  change: (emails: ProjectConfig["emails"]) => { override: ConfigOverride; result: T },
): Promise<T> {
  let result: T | undefined;
  await updateProject(db, projectId, {}, (stored) => {
    const edit = change(renderProjectConfig(stored as ConfigObject).emails);
    result = edit.result;
    return overrideConfig(stored as ConfigObject, edit.override);
  });
  return result as T;
}
