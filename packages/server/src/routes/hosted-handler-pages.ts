import { randomBytes } from "node:crypto";
import { Hono, type Context } from "hono";
import { PUBLIC_CLIENT_SECRET } from "@latchkey/protocol/dialects";
import { HOSTED_PAGES, RETURN_TO_PARAM, hostedHandlerPath, type HostedPage } from "@latchkey/protocol/hosted-pages";
import { hasHostedPages, hostedHandlerBase, isUrlTrustedForProject, projectHomeUrl } from "../config/hosted-pages.js";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import type { AppEnv } from "../http/context.js";
import { HOSTED_PAGE_CSS, escapeHtml, scriptJson } from "../http/page-html.js";
import { findProject } from "../services/projects.js";
import { unbuiltAnswer } from "../ui-builds.js";
import { STATIC_VERSION } from "./static-bundles.js";

/**
 * The handler pages of every project, hosted by the server itself (issue 16 §5), so that an app without
 * routes of its own (a plain page with the script tag) still has working sign-up, forgot-password and
 * mail-link pages: `GET /projects/<project id>/handler/<page>` (canonical), and `GET /handler/<page>?project_id=…`,
 * which redirects there. Each page is a small HTML document that loads this server's elements bundle and
 * shows `<auth-handler>`.
 *
 * Keys: the page is a client without a publishable key. Keys are stored only as hashes, so the server has
 * none to embed, and inventing one would bypass a project's choice to require them. The page sends 2.8.108's
 * public sentinel instead (http/auth.ts), which the server accepts exactly when the project lets clients go
 * without a key (`project.requirePublishableClientKey` off, the default). A project that requires keys has no
 * hosted pages: 404, with the reason.
 *
 * Return address: `after_auth_return_to` is kept only when the project trusts it (its trusted domains, the
 * same check as for every redirect); otherwise the page is reloaded without it, so nothing on the page can
 * follow it. Without one, people go to the project's home (its first trusted domain) when done. The pages
 * carry a kept return address in every link they hand out, mailed ones included, and hand the session back
 * to an app on another origin (core's flows/hosted-pages.ts, services/hosted-handoff.ts).
 */
export function hostedHandlerPagesRoutes() {
  const app = new Hono<AppEnv>();
  app.get("/handler/:page", (c) => {
    const url = new URL(c.req.url);
    const projectId = url.searchParams.get("project_id");
    if (!projectId) return notFoundPage(c, "This address needs a project: add ?project_id=<your project id>.");
    url.searchParams.delete("project_id");
    return c.redirect(`${hostedHandlerPath(projectId)}/${encodeURIComponent(c.req.param("page"))}${url.search}`, 302);
  });
  app.get("/projects/:projectId/handler/:page", (c) => hostedPage(c, c.req.param("projectId"), c.req.param("page")));
  return app;
}

async function hostedPage(c: Context<AppEnv>, projectId: string, page: string): Promise<Response> {
  const { db, env } = c.get("deps");
  if (!isHostedPage(page)) return notFoundPage(c, "There is no page at this address.");
  const project = await findProject(db, projectId);
  if (!project) return notFoundPage(c, "There is no project with this id.");
  const config = renderProjectConfig(project.config_override as ConfigObject);
  if (!hasHostedPages(config)) {
    return notFoundPage(c, "This project requires a publishable client key on every request, so this server hosts no pages for it: the app serves its own handler pages.");
  }

  const url = new URL(c.req.url);
  const returnTargets = url.searchParams.getAll(RETURN_TO_PARAM);
  const returnTo = returnTargets.length === 1 && isUrlTrustedForProject(env, project.id, config, returnTargets[0]!) ? returnTargets[0]! : undefined;
  if (returnTargets.length > 0 && !returnTo) {
    url.searchParams.delete(RETURN_TO_PARAM);
    return c.redirect(`${url.pathname}${url.search}`, 302);
  }

  // The page is the elements bundle's: while `npm start` builds it (ui-builds.ts), the page says so and reloads.
  const unbuilt = unbuiltAnswer("elements", "page");
  if (unbuilt) return unbuilt;
  const base = hostedHandlerBase(env, project.id);
  const home = projectHomeUrl(env, project.id, config);
  const pageUrl = (name: HostedPage) => (returnTo ? `${base}/${name}?${new URLSearchParams({ [RETURN_TO_PARAM]: returnTo })}` : `${base}/${name}`);
  const done = returnTo ?? home;
  const appOptions = {
    projectId: project.id,
    publishableClientKey: PUBLIC_CLIENT_SECRET,
    baseUrl: env.publicUrl,
    urls: {
      handler: hostedHandlerPath(project.id),
      home,
      afterSignIn: done,
      afterSignUp: done,
      afterSignOut: done,
      signIn: pageUrl("sign-in"),
      signUp: pageUrl("sign-up"),
      signOut: pageUrl("sign-out"),
      forgotPassword: pageUrl("forgot-password"),
      passwordReset: pageUrl("password-reset"),
      emailVerification: pageUrl("email-verification"),
      magicLinkCallback: pageUrl("magic-link-callback"),
      oauthCallback: pageUrl("oauth-callback"),
      accountSettings: pageUrl("account-settings"),
      teamInvitation: pageUrl("team-invitation"),
      mfa: pageUrl("mfa"),
      error: pageUrl("error"),
    },
    // The page's redirects may go where the return address and home lead (the core refuses other origins).
    trustedOrigins: [...new Set([home, ...(returnTo ? [returnTo] : [])].map((u) => new URL(u).origin))],
  };
  const nonce = randomBytes(16).toString("base64");
  const html = `<!doctype html>
<html lang="${pageLanguage(c.req.header("accept-language"))}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(project.display_name)}</title>
<link rel="icon" href="data:,">
<style>${HOSTED_PAGE_CSS}</style>
<script src="/static/${STATIC_VERSION}/latchkey.iife.js"></script>
<script nonce="${nonce}">Latchkey.initHostedPage(${scriptJson(appOptions)});</script>
</head>
<body>
<header><p class="project">${escapeHtml(project.display_name)}</p></header>
<main><auth-handler></auth-handler></main>
</body>
</html>`;
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", ...securityHeaders(env.publicUrl, nonce) } });
}

function isHostedPage(page: string): page is HostedPage {
  return (HOSTED_PAGES as readonly string[]).includes(page);
}

/**
 * The page runs only this server's scripts (the bundle, and its own inline one by nonce), may not be framed
 * (clickjacking a password form), and sends no Referer: its URL may carry a one-time code from a mail.
 */
function securityHeaders(publicUrl: string, nonce?: string): Record<string, string> {
  const api = new URL(publicUrl).origin;
  const csp = [
    "default-src 'none'",
    `script-src 'self'${nonce ? ` 'nonce-${nonce}'` : ""}`,
    // The elements set inline styles (and may add <style> elements); the page's own CSS is inline too.
    "style-src 'self' 'unsafe-inline'",
    // Profile pictures are any https URL or a data: URL; provider marks come from this server.
    "img-src 'self' data: blob: https:",
    `connect-src 'self' ${api}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
  };
}

function notFoundPage(c: Context<AppEnv>, message: string): Response {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Not found</title><style>${HOSTED_PAGE_CSS}</style></head>
<body><main><h1>Not found</h1><p>${escapeHtml(message)}</p></main></body>
</html>`;
  return new Response(html, { status: 404, headers: { "content-type": "text/html; charset=utf-8", ...securityHeaders(c.get("deps").env.publicUrl) } });
}

/** The first language the browser asks for, as the page's `lang` (the elements pick their messages from it). */
function pageLanguage(acceptLanguage: string | undefined): string {
  const first = acceptLanguage?.split(",")[0]?.split(";")[0]?.trim() ?? "";
  return /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(first) ? first : "en";
}

