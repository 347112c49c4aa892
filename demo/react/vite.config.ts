import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { singlePageAppConfig } from "../../scripts/vite-single-page-app.js";

/**
 * `npm run build:demo` builds the React demo into demo/react/dist, served by the dev server under
 * /demo/react/ (packages/server/src/routes/demo-pages.ts). esbuild's automatic JSX runtime replaces a React
 * plugin: the demo needs no fast refresh.
 */
export default defineConfig(
  // Source maps: readable stack traces when a person debugs the demo.
  singlePageAppConfig({ root: fileURLToPath(new URL(".", import.meta.url)), base: "/demo/react/" }),
);
