import type { Loadable, Project } from "@latchkey/core";
import { html, type TemplateResult } from "lit-html";
import { describeError } from "./errors.js";
import { msg } from "./i18n.js";

/**
 * Renders `ready` once the project's public configuration (which methods are enabled) is loaded; until then
 * a status line, and a readable alert if it cannot be loaded.
 */
export function projectGate(project: Loadable<Project> | undefined, ready: (project: Project) => TemplateResult): TemplateResult {
  if (project?.status === "ready") return ready(project.value);
  if (project?.status === "error") return html`<p class="lk-alert" role="alert">${describeError(project.error).message}</p>`;
  return html`<p class="lk-note" role="status" aria-busy="true">${msg("Loading…")}</p>`;
}
