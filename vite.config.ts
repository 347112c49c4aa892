import { defineConfig } from "vitest/config";

// The server suite runs once on embedded PGlite and, when a real PostgreSQL is given
// (LATCHKEY_TEST_DATABASE_URL, as .ci/run does), once more against it.
const postgresUrl = process.env.LATCHKEY_TEST_DATABASE_URL;
const serverTests = ["packages/server/test/**/*.test.ts"];

export default defineConfig({
  test: {
    projects: [
      { test: { name: "protocol", include: ["packages/protocol/test/**/*.test.ts"] } },
      // The core's integration tests start a real server in-process, on PGlite.
      { test: { name: "core", include: ["packages/core/test/**/*.test.ts"], env: { LATCHKEY_TEST_DB: "pglite" }, testTimeout: 30_000, hookTimeout: 60_000 } },
      { test: { name: "server (PGlite)", include: serverTests, env: { LATCHKEY_TEST_DB: "pglite" }, testTimeout: 30_000, hookTimeout: 60_000 } },
      ...(postgresUrl
        ? [{ test: { name: "server (PostgreSQL)", include: serverTests, env: { LATCHKEY_TEST_DB: "postgres" }, testTimeout: 30_000, hookTimeout: 60_000 } }]
        : []),
    ],
  },
});
