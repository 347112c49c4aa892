/**
 * Emails as code (issue 19): renders an admin's TSX theme + template (or draft) to HTML, plain text, subject and
 * notification category. What runs where:
 *  - compile-tsx.ts: TSX → CommonJS with esbuild, in the server, cached by source hash;
 *  - render-queue.ts: each project's renders take their turn (a full queue is a 429);
 *  - sandbox-client.ts → sandbox-process.mjs: the compiled modules run in a V8 isolate (isolated-vm) in a child
 *    process, with React's static renderer and React Email (sandbox-runtime/, bundled by sandbox-library.mjs),
 *    and the plain text is made there too, from the HTML. What comes out is bounded in the isolate
 *    (sandbox-limits.mjs), so the server's event loop only ever handles small strings.
 * Every failure is an EMAIL_RENDERING_ERROR (400) naming what went wrong, but for the 429 of a full queue.
 */
import { KnownErrors } from "@latchkey/protocol/errors";
import { BUILT_IN_EMAIL_TEMPLATES, NEW_EMAIL_DRAFT_SOURCE, NEW_EMAIL_TEMPLATE_SOURCE } from "../email/built-in-templates.js";
import { BUILT_IN_EMAIL_THEMES } from "../email/built-in-themes.js";
import { compileTsx, TsxCompileError } from "./compile-tsx.js";
import { inRenderTurn } from "./render-queue.js";
import { renderInSandbox, SandboxRenderError } from "./sandbox-client.js";
import { cutText } from "./sandbox-limits.mjs";

export { stopSandboxProcess } from "./sandbox-client.js";

export interface EmailRenderInput {
  /** TSX of a theme module exporting `EmailTheme`; null renders the template without a theme. */
  themeSource: string | null;
  /** TSX of a template or draft module exporting `EmailTemplate`. */
  templateSource: string;
  /** The template's `variables` prop (validated against its `variablesSchema` when it exports one). */
  variables?: Record<string, unknown>;
  user?: { displayName: string | null } | null; // null/absent → { displayName: null }
  project: { displayName: string };
  unsubscribeLink?: string | null;
  /** Preview: variables default to `EmailTemplate.PreviewVariables`, theme props to `EmailTheme.PreviewProps`. */
  previewMode?: boolean;
  /**
   * The project the mail belongs to. Renders of one project reuse that project's warm sandbox (~5 ms instead of
   * ~0.3–0.5 s to load the libraries into a fresh one); without it every render gets a fresh sandbox. Sandboxes are
   * never shared between projects (but for Latchkey's own sources, below). Its renders take their turn in its own
   * queue (render-queue.ts).
   */
  projectId?: string | null;
}

// Latchkey's own built-in sources (its templates and themes as every project starts with them) are trusted code:
// renders of nothing else, for any project, share one warm sandbox under this key (never a project id: those are
// `internal` or uuids), so a project's first mail or preview of them costs no library load; they still take their
// turn among the project's renders. Any source an admin wrote runs in that project's own sandbox.
const BUILT_IN_SANDBOX = "latchkey:built-in";
const builtInSources = new Set([...Object.values(BUILT_IN_EMAIL_TEMPLATES), ...Object.values(BUILT_IN_EMAIL_THEMES)].map((entry) => entry.tsxSource).concat(NEW_EMAIL_TEMPLATE_SOURCE, NEW_EMAIL_DRAFT_SOURCE));

function sandboxKeyFor(input: EmailRenderInput): string | null {
  const projectId = input.projectId ?? null;
  const trusted = builtInSources.has(input.templateSource) && (input.themeSource === null || builtInSources.has(input.themeSource));
  return projectId !== null && trusted ? BUILT_IN_SANDBOX : projectId;
}

export interface RenderedEmail {
  html: string;
  text: string;
  subject: string | null;
  notificationCategory: string | null;
}

/** The sandbox already bounds its messages; a compile error's is bounded here (a 2 KB cut, ending in "…"). */
function renderingError(message: string) {
  return new KnownErrors.EmailRenderingError(cutText(message));
}

export async function renderEmail(input: EmailRenderInput): Promise<RenderedEmail> {
  let templateCode: string;
  let themeCode: string | null;
  try {
    [templateCode, themeCode] = await Promise.all([
      compileTsx(input.templateSource, "template"),
      input.themeSource == null ? null : compileTsx(input.themeSource, "theme"),
    ]);
  } catch (error) {
    throw renderingError(error instanceof TsxCompileError ? error.message : String(error));
  }
  const projectId = input.projectId ?? null;
  // The queue's 429 goes out as it is; everything the render itself runs into is an EMAIL_RENDERING_ERROR.
  return inRenderTurn(projectId ?? "", async () => {
    try {
      return await renderInSandbox(sandboxKeyFor(input), {
        templateCode,
        themeCode,
        variables: input.variables,
        user: { displayName: input.user?.displayName ?? null },
        project: { displayName: input.project.displayName },
        unsubscribeLink: input.unsubscribeLink ?? null,
        previewMode: input.previewMode === true,
      });
    } catch (error) {
      throw renderingError(error instanceof SandboxRenderError ? error.message : error instanceof Error ? error.message : String(error));
    }
  });
}
