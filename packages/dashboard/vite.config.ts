import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { singlePageAppConfig } from "../../scripts/vite-single-page-app.js";

// The dashboard is always a production build, whatever NODE_ENV the shell has: under "development" (or vitest's
// "test") Vite would resolve Lit's and React's development builds (Lit then logs "Lit is in dev mode" on every
// page, and the main script is ~40 % larger). Vite reads NODE_ENV after loading this file.
process.env.NODE_ENV = "production";

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
