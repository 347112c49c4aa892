import { fileURLToPath } from "node:url";
import { defaultClientConditions, defineConfig } from "vite";
import { withoutUseClient } from "../../scripts/vite-without-use-client.js";

/**
 * `npm run build --workspace @latchkey/dashboard` (and `npm start`, scripts/builds.mjs) builds the dashboard into
 * packages/dashboard/dist, which the server serves at /dashboard/ (packages/server/src/routes/dashboard.ts),
 * with the server's address and the internal project's client key written into index.html.
 */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/dashboard/",
  esbuild: { jsx: "automatic" },
  plugins: [withoutUseClient()],
  // The workspace packages' TypeScript sources (the `source` export condition), so no package build comes first.
  resolve: { conditions: ["source", ...defaultClientConditions] },
  logLevel: "warn",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    // The elements bundle alone is ~200 kB before compression; the budget that counts is gzip (README).
    chunkSizeWarningLimit: 1000,
    rollupOptions: {
      // zod's sources carry /* @__PURE__ */-style notes Rollup cannot place; it drops them, harmlessly, with a warning each.
      onwarn(warning, warn) {
        if (warning.code === "INVALID_ANNOTATION" && warning.id?.includes("/node_modules/zod/")) return;
        warn(warning);
      },
    },
  },
});
