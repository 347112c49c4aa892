import { fileURLToPath } from "node:url";
import { defaultClientConditions, defineConfig } from "vite";
import { withoutUseClient } from "../../scripts/vite-without-use-client.js";

/**
 * `npm run build:demo` builds the React demo into demo/react/dist, served by the dev server under
 * /demo/react/ (packages/server/src/routes/demo-pages.ts). esbuild's automatic JSX runtime replaces a React
 * plugin: the demo needs no fast refresh.
 */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/demo/react/",
  esbuild: { jsx: "automatic" },
  plugins: [withoutUseClient()],
  // The workspace packages' TypeScript sources (the `source` export condition), so no package build comes first.
  resolve: { conditions: ["source", ...defaultClientConditions] },
  logLevel: "warn",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Readable stack traces when a person debugs the demo.
    sourcemap: true,
  },
});
