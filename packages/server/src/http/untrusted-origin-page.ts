import type { Context } from "hono";
import { KnownErrors } from "@latchkey/protocol/errors";
import type { AppEnv } from "./context.js";
import { setProtocolHeader } from "./dialect.js";
import { escapeHtml } from "./page-html.js";

/**
 * What a browser shows when a flow it navigated through (the OAuth callback) would send it back to a page on an
 * origin the project does not trust. A person there reads a page, not the protocol's JSON: the origin, the
 * project, and what its developer adds where — in dev mode with a link to the dashboard's Domains page (SPEC §2's
 * fix link). The status and the known-error header stay the protocol's, so a program still reads the code; a
 * request that is not a navigation (an SDK's fetch) still gets the JSON with the wire's text.
 */

/** Whether the request is the browser opening a page (not a script's fetch, which cannot claim to be one). */
export function isBrowserNavigation(c: Context<AppEnv>): boolean {
  const mode = c.req.header("sec-fetch-mode");
  // Browsers send Sec-Fetch-* to https and loopback only; elsewhere a navigation still asks for HTML first.
  if (mode !== undefined) return mode === "navigate";
  return /^text\/html\b/.test(c.req.header("accept") ?? "");
}

export function untrustedOriginPage(c: Context<AppEnv>, project: { id: string; display_name: string }, url: string): Response {
  const { env } = c.get("deps");
  const origin = originOf(url);
  const domainsPage = `${env.publicUrl}/dashboard/projects/${encodeURIComponent(project.id)}/domains`;
  const fix = env.devMode
    ? `<p>If this is your app, add <code>${escapeHtml(origin)}</code> to the project's trusted domains on its <a href="${escapeHtml(domainsPage)}">Domains page</a> in the Latchkey dashboard, then sign in again.</p>`
    : `<p>If this is your app, add <code>${escapeHtml(origin)}</code> to the project's trusted domains (the project's Domains page in the Latchkey dashboard), then sign in again.</p>`;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Not a trusted domain</title><style>${PAGE_CSS}</style></head>
<body><main>
<h1>Sign-in cannot return to this site</h1>
<p><code>${escapeHtml(origin)}</code> is not a trusted domain of the project ${escapeHtml(JSON.stringify(project.display_name))}, so Latchkey does not send the sign-in back there.</p>
${fix}
<p class="note">Error code: <code>${KnownErrors.RedirectUrlNotWhitelisted.code}</code></p>
</main></body>
</html>`;
  const headers = new Headers({
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  });
  setProtocolHeader(headers, c.get("dialect"), "known-error", KnownErrors.RedirectUrlNotWhitelisted.code);
  return new Response(html, { status: KnownErrors.RedirectUrlNotWhitelisted.status, headers });
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}


const PAGE_CSS = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0; display: flex; justify-content: center; background: Canvas; color: CanvasText; }
main { max-width: 36rem; padding: 2rem 1rem; line-height: 1.5; }
h1 { font-size: 1.375rem; }
code { overflow-wrap: anywhere; }
.note { opacity: 0.75; font-size: 0.875rem; }
`;
