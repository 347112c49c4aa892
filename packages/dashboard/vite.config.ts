import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { singlePageAppConfig } from "../../scripts/vite-single-page-app.js";

/**
 * `npm run build --workspace @latchkey/dashboard` (and `npm start`, scripts/builds.mjs) builds the dashboard into
 * packages/dashboard/dist, which the server serves at /dashboard/ (packages/server/src/routes/dashboard.ts),
 * with the server's address and the internal project's client key written into index.html.
 */
export default defineConfig(
  singlePageAppConfig({
    root: fileURLToPath(new URL(".", import.meta.url)),
    base: "/dashboard/",
    build: {
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
  }),
);
