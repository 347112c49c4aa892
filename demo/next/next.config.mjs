import { fileURLToPath } from "node:url";

/**
 * A customer's Next.js App Router app using the BUILT packages (their `exports`: dist/*.js and .d.ts), as an
 * app outside this repository gets them: `npm run build:packages` first, then `next build demo/next`.
 * demo/test/next-app.e2e.test.ts builds and starts it against a real Latchkey server.
 *
 * @type {import("next").NextConfig}
 */
const config = {
  // Inside dist/, which git ignores like every build output.
  distDir: "dist",
  // The repository root, where node_modules and the lockfile are (Next would guess it, and warn).
  turbopack: { root: fileURLToPath(new URL("../..", import.meta.url)) },
  outputFileTracingRoot: fileURLToPath(new URL("../..", import.meta.url)),
  // TypeScript 7 (the repository's) has no compiler API: Next checks the types with its `tsc` instead.
  experimental: { useTypeScriptCli: true },
};

export default config;
