import { escapeHtml } from "./http/page-html.js";

/**
 * What the server serves from the repository's builds — the elements bundle (/static/…, /demo/ and the hosted
 * handler pages, which load it), the React demo (/demo/react/…), the dashboard (/dashboard/…) — may still be
 * building when it answers: `npm start` (scripts/start.mjs) waits only for the server's own build and runs those
 * in the background, so a fresh clone's API answers long before its dashboard is built (issue 35). Until a build
 * is done its paths answer "building…" (503 with Retry-After; a page reloads by itself), and after a failed one
 * that it failed (500): never files that the build is rewriting, or an older build's. scripts/start.mjs hands
 * the states over in `globalThis[UI_BUILDS]`, a Map from the build to its state (no entry: built). A server
 * started otherwise (the tests, the package, `npm run start --workspace @latchkey/server`) has no such map and
 * serves the files as they are.
 */
export const UI_BUILDS = Symbol.for("latchkey.uiBuilds");

export type UiBuild = "elements" | "demo" | "dashboard";

interface UiBuildState {
  state: "building" | "failed";
  /** The build's name in scripts/builds.mjs, e.g. "the admin dashboard (packages/dashboard/dist)". */
  name: string;
}

const RETRY_SECONDS = 2;

/**
 * The answer for a path served from `build` while that build runs or after it failed; undefined when its files
 * may be served. `page`: an HTML page a person opens (it reloads by itself until the build is done); otherwise
 * a file a page loads (plain text).
 */
export function unbuiltAnswer(build: UiBuild, kind: "page" | "file"): Response | undefined {
  const state = (globalThis as { [UI_BUILDS]?: Map<UiBuild, UiBuildState> })[UI_BUILDS]?.get(build);
  if (!state) return undefined;
  const failed = state.state === "failed";
  const message = failed
    ? `The build of ${state.name} failed: the terminal running npm start says why. Fix it and start again.`
    : `Building ${state.name} (npm start)… ${kind === "page" ? "This page reloads by itself when it is ready." : "Reload when it is done."}`;
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (!failed) headers["retry-after"] = String(RETRY_SECONDS);
  if (kind === "file") return new Response(`${message}\n`, { status: failed ? 500 : 503, headers: { ...headers, "content-type": "text/plain; charset=utf-8" } });
  const refresh = failed ? "" : `<meta http-equiv="refresh" content="${RETRY_SECONDS}">\n`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${refresh}<title>${failed ? "Build failed" : "Building…"}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2328}</style>
</head>
<body>
<p>${escapeHtml(message)}</p>
</body>
</html>`;
  return new Response(html, { status: failed ? 500 : 503, headers: { ...headers, "content-type": "text/html; charset=utf-8" } });
}

