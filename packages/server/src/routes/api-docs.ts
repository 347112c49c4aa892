import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { Context } from "hono";
import { z } from "zod";
import { buildOpenApiDocument } from "../http/openapi.js";
import { defineRoute, type Route } from "../http/route.js";

/**
 * `/openapi.json` (the OpenAPI 3.1 document built from the route declarations) and `/docs`, an API
 * reference page rendered by Scalar's API reference (served from our own copy, vendor/scalar/: the page loads
 * nothing from outside the server, sends no telemetry and offers nothing that needs Scalar's services).
 * The script (4.3 MB) and the document (~0.6 MB) go gzip-compressed to a browser that takes it (~1.3 MB and
 * ~30 KB), and the page asks for the document while the script still loads.
 */

/**
 * Scalar's browser bundle (@scalar/api-reference's dist/browser/standalone.js), kept in vendor/scalar/ rather than
 * installed with the package and its ~240 dependencies (scripts/vendor-scalar.mjs updates it).
 */
function scalarBundlePath(): string {
  // The packaged server (scripts/package.mjs) ships this one file beside the code.
  const shipped = fileURLToPath(new URL("./scalar-standalone.js", import.meta.url));
  if (existsSync(shipped)) return shipped;
  return fileURLToPath(new URL("../../vendor/scalar/standalone.js", import.meta.url));
}

/**
 * The reference mounts on `#latchkey-api-reference`, not `#api-reference`: on loading, the bundle mounts a
 * second reference of its own, with no configuration (its "Ask AI" and "Generate MCP" buttons, fonts from
 * fonts.scalar.com, twice the rendering), on an element with that id.
 */
const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Latchkey API reference</title>
<link rel="icon" href="data:,">
<link rel="preload" href="./openapi.json" as="fetch" crossorigin>
</head>
<body>
<div id="latchkey-api-reference"></div>
<script src="./docs/scalar.js"></script>
<script>
Scalar.createApiReference("#latchkey-api-reference", {
  url: "./openapi.json",
  withDefaultFonts: false,
  // System fonts: the bundle's own faces would be fetched from Scalar's servers.
  customCss: "*{--scalar-font:system-ui,sans-serif!important;--scalar-font-code:ui-monospace,monospace!important}",
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
});
</script>
</body>
</html>
`;

/** The document is the same for the whole life of the process: built on first use. */
export function apiDocsRoutes(allRoutes: () => readonly Route[], version: string): Route[] {
  const document = compressible(() => JSON.stringify(buildOpenApiDocument(allRoutes(), { version, serverUrl: "/api/v1" })));
  const scalar = compressible(() => readFileSync(scalarBundlePath(), "utf8"));
  return [
    defineRoute({
      method: "get",
      path: "/openapi.json",
      summary: "This API's OpenAPI 3.1 document",
      tags: ["Documentation"],
      access: "public",
      response: { description: "The OpenAPI document.", schema: z.record(z.string(), z.unknown()) },
      handler: (c) => document.respond(c, { "content-type": "application/json; charset=utf-8" }),
    }),
    defineRoute({
      method: "get",
      path: "/docs",
      summary: "The API reference page",
      tags: ["Documentation"],
      access: "public",
      response: { description: "An HTML page rendering the OpenAPI document.", schema: z.string(), contentType: "text/html" },
      handler: (c) => c.html(DOCS_PAGE),
    }),
    defineRoute({
      method: "get",
      path: "/docs/scalar.js",
      summary: "The API reference page's script (Scalar API Reference)",
      tags: ["Documentation"],
      access: "public",
      response: { description: "JavaScript.", schema: z.string(), contentType: "application/javascript" },
      handler: (c) => scalar.respond(c, { "content-type": "application/javascript; charset=utf-8", "cache-control": "public, max-age=86400" }),
    }),
  ];
}

/**
 * A body made on first use and its gzip form, compressed once (off the event loop) and kept: answered
 * compressed to a client whose Accept-Encoding takes gzip, as it is otherwise.
 */
function compressible(make: () => string) {
  let plain: string | undefined;
  let gzipped: Promise<Uint8Array<ArrayBuffer>> | undefined;
  return {
    async respond(c: Context, headers: Record<string, string>): Promise<Response> {
      plain ??= make();
      const vary = { ...headers, vary: "accept-encoding" };
      if (!/\bgzip\b/.test(c.req.header("accept-encoding") ?? "")) return new Response(plain, { headers: vary });
      gzipped ??= promisify(gzip)(plain).then((bytes) => new Uint8Array(bytes));
      return new Response(await gzipped, { headers: { ...vary, "content-encoding": "gzip" } });
    },
  };
}
