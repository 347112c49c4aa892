import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { Hono, type Context } from "hono";
import { PUBLIC_CLIENT_SECRET } from "@latchkey/protocol/dialects";
import { renderProjectConfig, requiresPublishableClientKey, type ConfigObject } from "../config/project-config.js";
import type { AppEnv } from "../http/context.js";
import { INTERNAL_PROJECT_ID, findProject } from "../services/projects.js";
import { unbuiltAnswer } from "../ui-builds.js";

/**
 * The admin dashboard (packages/dashboard, issue 20), served by the server itself in every mode from its
 * built files (packages/dashboard/dist; `npm start` builds them):
 * - `/dashboard/assets/<file>`: the hashed scripts and styles (content-named, so cached for a year);
 * - `/dashboard/` and every other path under it: index.html, so the app routes by itself, with what it
 *   needs written in: this server's public URL and the client key of the `internal` project, whose
 *   users own the projects.
 *
 * The key: the configured seed key (LATCHKEY_SEED_PUBLISHABLE_CLIENT_KEY; in dev mode the well-known one) is
 * the only one the server knows in plain text (keys are stored as hashes). Without one, the protocol's public
 * sentinel (as the hosted handler pages send), which the server accepts while the internal project does not
 * require keys (the default). A server whose internal project requires keys and that has none configured
 * serves a page that says so. Like every HTML page of the server, it cannot be framed (http/security-headers.ts).
 */
const dist = fileURLToPath(new URL("../../../dashboard/dist/", import.meta.url));
const PLAIN_FILE_NAME = /^[\w-]+(\.[\w-]+)+$/;
const CONTENT_TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  map: "application/json; charset=utf-8",
};
/** Where index.html takes the config (packages/dashboard/index.html), and the element the app reads it from. */
const CONFIG_PLACEHOLDER = "<!-- latchkey-dashboard-config -->";
const CONFIG_ELEMENT_ID = "latchkey-dashboard-config";
const BUILD_HINT = "The dashboard is not built yet: run `npm run build --workspace @latchkey/dashboard` (`npm start` builds it), then reload.";

/** Compressed assets by file name: names carry a hash of the content, so a name never changes content. */
const gzipped = new Map<string, Buffer>();

export function dashboardRoutes() {
  const app = new Hono<AppEnv>();
  app.get("/dashboard", (c) => c.redirect("/dashboard/", 302));
  app.get("/dashboard/assets/:file", (c) => asset(c, c.req.param("file")));
  app.get("/dashboard/*", (c) => indexPage(c));
  return app;
}

async function asset(c: Context<AppEnv>, file: string): Promise<Response> {
  const type = CONTENT_TYPES[file.split(".").pop() ?? ""];
  if (!PLAIN_FILE_NAME.test(file) || !type) return c.text("Not found", 404);
  const unbuilt = unbuiltAnswer("dashboard", "file");
  if (unbuilt) return unbuilt;
  let raw: Buffer;
  try {
    raw = await readFile(`${dist}assets/${file}`);
  } catch {
    return c.text("Not found", 404);
  }
  const headers: Record<string, string> = { "content-type": type, "cache-control": "public, max-age=31536000, immutable", vary: "accept-encoding" };
  if (!/\bgzip\b/.test(c.req.header("accept-encoding") ?? "")) return new Response(new Uint8Array(raw), { headers });
  let compressed = gzipped.get(file);
  if (!compressed) gzipped.set(file, (compressed = gzipSync(raw, { level: 9 })));
  return new Response(new Uint8Array(compressed), { headers: { ...headers, "content-encoding": "gzip" } });
}

async function indexPage(c: Context<AppEnv>): Promise<Response> {
  const unbuilt = unbuiltAnswer("dashboard", "page");
  if (unbuilt) return unbuilt;
  let html: string;
  try {
    // Read per request: a rebuild shows on reload, and the page is small.
    html = await readFile(`${dist}index.html`, "utf8");
  } catch {
    return c.text(BUILD_HINT, 404);
  }
  const { env } = c.get("deps");
  const config = {
    baseUrl: env.publicUrl,
    projectId: INTERNAL_PROJECT_ID,
    publishableClientKey: await internalClientKey(c),
    // No Stripe key: every project's payments run in test mode, which the Payments page says up front (issue 32).
    paymentsTestMode: env.stripe === undefined,
  };
  // `<` escaped, so no value can close the script element early.
  const json = JSON.stringify(config).replaceAll("<", "\\u003c");
  const page = html.replace(CONFIG_PLACEHOLDER, `<script type="application/json" id="${CONFIG_ELEMENT_ID}">${json}</script>`);
  return c.html(page, 200, { "cache-control": "no-cache" });
}

async function internalClientKey(c: Context<AppEnv>): Promise<string | null> {
  const { db, env } = c.get("deps");
  if (env.seedKeys.publishableClientKey) return env.seedKeys.publishableClientKey;
  const internal = await findProject(db, INTERNAL_PROJECT_ID);
  const config = renderProjectConfig((internal?.config_override ?? {}) as ConfigObject);
  return requiresPublishableClientKey(config) ? null : PUBLIC_CLIENT_SECRET;
}
