/**
 * Emails as code (issue 19): renders an admin's TSX theme + template (or draft) to HTML, plain text, subject and
 * notification category. What runs where:
 *  - compile-tsx.ts: TSX → CommonJS with esbuild, in the server, cached by source hash;
 *  - sandbox-client.ts → sandbox-process.mjs: the compiled modules run in a V8 isolate (isolated-vm) in a child
 *    process, with React's static renderer and React Email (sandbox-runtime/, bundled by sandbox-library.mjs);
 *  - plain-text.ts: the text part from the HTML, in the server.
 * Every failure is an EMAIL_RENDERING_ERROR (400) naming what went wrong; nothing here throws anything else.
 */
import { KnownErrors } from "@latchkey/protocol/errors";
import { compileTsx, TsxCompileError } from "./compile-tsx.js";
import { htmlToPlainText } from "./plain-text.js";
import { renderInSandbox, SandboxRenderError } from "./sandbox-client.js";

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
   * ~0.4–1.4 s to load the libraries into a fresh one); without it every render gets a fresh sandbox. Sandboxes are
   * never shared between projects.
   */
  projectId?: string | null;
}

export interface RenderedEmail {
  html: string;
  text: string;
  subject: string | null;
  notificationCategory: string | null;
}

function renderingError(message: string) {
  return new KnownErrors.EmailRenderingError(message);
}

export async function renderEmail(input: EmailRenderInput): Promise<RenderedEmail> {
  try {
    const [templateCode, themeCode] = await Promise.all([
      compileTsx(input.templateSource, "template"),
      input.themeSource == null ? null : compileTsx(input.themeSource, "theme"),
    ]);
    const result = await renderInSandbox(input.projectId ?? null, {
      templateCode,
      themeCode,
      variables: input.variables,
      user: { displayName: input.user?.displayName ?? null },
      project: { displayName: input.project.displayName },
      unsubscribeLink: input.unsubscribeLink ?? null,
      previewMode: input.previewMode === true,
    });
    const html = input.themeSource == null ? bareDocument(result.html) : result.html;
    return {
      html,
      text: htmlToPlainText(html),
      subject: result.subject,
      notificationCategory: result.notificationCategory,
    };
  } catch (error) {
    if (error instanceof TsxCompileError || error instanceof SandboxRenderError) throw renderingError(error.message);
    throw renderingError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * Without a theme the content still goes out as a document, in the skeleton the protocol's reference renders
 * theme-less mail in: `<html dir="ltr" lang="en"><head></head><body>…</body></html>`, after the doctype every
 * rendered mail starts with.
 */
function bareDocument(rendered: string): string {
  const doctype = /^<!DOCTYPE[^>]*>/i.exec(rendered)?.[0] ?? "";
  return `${doctype}<html dir="ltr" lang="en"><head></head><body>${rendered.slice(doctype.length)}</body></html>`;
}
