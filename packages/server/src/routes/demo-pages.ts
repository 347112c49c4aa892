import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";
import { unbuiltAnswer, type UiBuild } from "../ui-builds.js";

/**
 * `GET /demo/…` (dev mode only): the demo apps of the repository's `demo/` folder, served from the server
 * itself so they share its origin (no CORS, no second port):
 * - `/demo/` the plain HTML page, `/demo/handler/*` its handler page (demo/index.html, demo/handler.html);
 * - `/demo/latchkey.iife.js`, `/demo/latchkey.js` the elements bundle and its `/demo/locales/*.json`
 *   (packages/elements/dist);
 * - `/demo/react/…` the React app as built by `npm run build:demo` (demo/react/dist), any other path under
 *   it answered with its index.html so the app routes by itself.
 * Files are read per request: a rebuild shows on reload. Only known files and plain file names in the
 * build folders are served, never a path.
 */
const repository = fileURLToPath(new URL("../../../../", import.meta.url));
const folders = {
  demo: `${repository}demo/`,
  elements: `${repository}packages/elements/dist/`,
  react: `${repository}demo/react/dist/`,
};

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

/** The files of demo/ that its pages load (the pages themselves are served by path above). */
const PAGE_ASSETS = new Set(["demo-project.js", "demo.css"]);

const PLAIN_FILE_NAME = /^[\w-]+(\.[\w-]+)+$/;

/** What to build when a file is missing, so a person who skipped the build learns the one command to run. */
const BUILD_HINT = "Not built yet: run `npm run build:demo` (or `npm start`, which builds first), then reload.";

export function demoPagesRoutes() {
  const demo = new Hono<AppEnv>();
  demo.use("*", async function devModeOnly(c, next) {
    if (!c.get("deps").env.devMode) return c.notFound();
    await next();
  });

  demo.get("/", (c) => c.redirect("/demo/", 302));
  // The plain pages load the elements bundle: while it builds (ui-builds.ts) they say so instead.
  demo.get("/handler", () => unbuiltAnswer("elements", "page") ?? serve(folders.demo, "handler.html"));
  demo.get("/handler/*", () => unbuiltAnswer("elements", "page") ?? serve(folders.demo, "handler.html"));
  // The bundle fetches the active language's messages next to itself (dist/locales/<locale>.json).
  demo.get("/locales/:file", (c) => serve(`${folders.elements}locales/`, c.req.param("file"), BUILD_HINT, "elements"));
  demo.get("/react", (c) => c.redirect("/demo/react/", 302));
  demo.get("/react/assets/:file", (c) => serve(`${folders.react}assets/`, c.req.param("file"), BUILD_HINT, "demo"));
  demo.get("/react/*", () => unbuiltAnswer("demo", "page") ?? serve(folders.react, "index.html", BUILD_HINT));
  demo.get("/:file", (c) => {
    const file = c.req.param("file");
    if (file.startsWith("latchkey")) return serve(folders.elements, file, BUILD_HINT, "elements");
    // The demo folder also holds its tests and build config: only the pages' own assets are served.
    return PAGE_ASSETS.has(file) ? serve(folders.demo, file) : notFound(undefined);
  });
  // `/demo/` itself (Hono matches the trailing slash here, after the redirect of `/demo`).
  const app = new Hono<AppEnv>();
  app.get("/demo/", (c) => (c.get("deps").env.devMode ? (unbuiltAnswer("elements", "page") ?? serve(folders.demo, "index.html")) : c.notFound()));
  app.route("/demo", demo);
  return app;
}

/** `builtBy`: the build that writes `folder`, which may still be running (ui-builds.ts). */
async function serve(folder: string, file: string, missingHint?: string, builtBy?: UiBuild): Promise<Response> {
  const type = CONTENT_TYPES[extname(file)];
  if (!PLAIN_FILE_NAME.test(file) || !type) return notFound(missingHint);
  const unbuilt = builtBy && unbuiltAnswer(builtBy, "file");
  if (unbuilt) return unbuilt;
  let body: Buffer;
  try {
    body = await readFile(folder + file);
  } catch {
    return notFound(missingHint);
  }
  return new Response(new Uint8Array(body), { headers: { "content-type": type } });
}

function notFound(hint: string | undefined): Response {
  return new Response(hint ? `Not found. ${hint}\n` : "Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
}
