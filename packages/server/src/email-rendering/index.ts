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
   * never shared between projects. Its renders take their turn in its own queue (render-queue.ts).
   */
  projectId?: string | null;
  /** The warm sandbox to render in instead of the project's own: Latchkey's trusted built-in sources share one. */
  sandboxKey?: string;
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
      return await renderInSandbox(input.sandboxKey ?? projectId, {
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
