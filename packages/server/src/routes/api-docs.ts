import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { z } from "zod";
import { buildOpenApiDocument } from "../http/openapi.js";
import { defineRoute, type Route } from "../http/route.js";

/**
 * `/openapi.json` (the OpenAPI 3.1 document built from the route declarations) and `/docs`, an API
 * reference page rendered by Scalar's API reference (served from our own node_modules: the page loads
 * nothing from outside the server, and sends no telemetry).
 */

/** The package's browser bundle, next to its entry point (dist/index.js → dist/browser/standalone.js). */
function scalarBundlePath(): string {
  return join(dirname(createRequire(import.meta.url).resolve("@scalar/api-reference")), "browser", "standalone.js");
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Latchkey API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="api-reference"></div>
<script src="./docs/scalar.js"></script>
<script>
Scalar.createApiReference("#api-reference", {
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
  let document: string | undefined;
  let scalar: string | undefined;
  return [
    defineRoute({
      method: "get",
      path: "/openapi.json",
      summary: "This API's OpenAPI 3.1 document",
      tags: ["Documentation"],
      access: "public",
      response: { description: "The OpenAPI document.", schema: z.record(z.string(), z.unknown()) },
      handler: () => {
        document ??= JSON.stringify(buildOpenApiDocument(allRoutes(), { version, serverUrl: "/api/v1" }));
        return new Response(document, { headers: { "content-type": "application/json; charset=utf-8" } });
      },
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
      handler: () => {
        scalar ??= readFileSync(scalarBundlePath(), "utf8");
        return new Response(scalar, { headers: { "content-type": "application/javascript; charset=utf-8", "cache-control": "public, max-age=86400" } });
      },
    }),
  ];
}
