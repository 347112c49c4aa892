import { fileURLToPath } from "node:url";
import { defaultClientConditions, defineConfig, type Plugin } from "vite";

/**
 * @latchkey/react's entry starts with "use client", for React Server Components. This single-page app has
 * none: the directive means nothing here, and Rollup would warn that it drops it (and fail to map the warning).
 */
function withoutUseClient(): Plugin {
  const directive = '"use client";';
  return {
    name: "latchkey-demo-without-use-client",
    enforce: "pre",
    transform(code) {
      // Blanked to the same length, so positions, and the source map (`map: null`: unchanged), stay true.
      if (code.startsWith(directive)) return { code: " ".repeat(directive.length) + code.slice(directive.length), map: null };
    },
  };
}

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
