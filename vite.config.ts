import { availableParallelism } from "node:os";
import { defaultClientConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";
import { bundledSources } from "./packages/server/test/support/bundled-sources.js";

// The server suite runs on embedded PGlite; when a real PostgreSQL is given (LATCHKEY_TEST_DATABASE_URL, as .ci/run
// does), its API files run against PostgreSQL instead, and PGlite keeps the files below (bothDatabases, pgliteOnly,
// databaseFree). Running every file on both cost about a seventh of CI's CPU (issue 35, bench/README.md). What
// differs between the two stays tested on both: PGlite's own paths (its driver, change feed, data dir, template, one
// connection) in bothDatabases; PGlite's one connection — a query awaited from inside a transaction on the database
// itself, not on the transaction, waits forever there — on PostgreSQL too, whose test servers keep PGlite's rule
// (support/one-connection-check.ts); and the API's flows on PGlite through the core's and the end-to-end projects,
// whose servers all run on PGlite.
const postgresUrl = process.env.LATCHKEY_TEST_DATABASE_URL;
const serverTests = ["packages/server/test/**/*.test.ts"];
// Browser checks of what the server serves (the API reference page) run once, with the other end-to-end files.
const serverE2e = "packages/server/test/**/*.e2e.test.ts";
// Server test files that never open a database (configuration, the drain, mail rendering, the import layers, the
// redirect allow-list): run once, with the PGlite project, not again against PostgreSQL.
const databaseFree = ["config", "drain", "email-rendering", "email-rendering-bounds", "email-rendering-sandbox-state", "email-sandbox-shared", "layers", "redirect-allow-list", "announced-writes", "bundled-sources"].map((name) => `packages/server/test/${name}.test.ts`);

// Files about PGlite only (they skip themselves on PostgreSQL): not run at all in the PostgreSQL project, where vitest
// would load them only to skip them, and skipped files run no afterAll (their scratch dirs stayed in /tmp). The files
// about PostgreSQL only (database-outage, production-backup…) are left out of the PGlite project by its list below.
const pgliteOnly = ["email-rendering-tenants", "pglite-template", "npm-start", "start-deferred"].map((name) => `packages/server/test/${name}.test.ts`);
// Files about what PGlite does its own way, run on both databases: caches fed by its change notifications, unique
// violations and single-use codes under concurrency, the server as a process on a data dir (start, shutdown, health,
// metrics, the CLI, an upgrade from the last release), and the wire shapes of users, teams and projects read through
// its driver (timestamps, JSON, numbers).
const bothDatabases = ["caches", "webhook-listening-cache", "announced-writes-triggers", "users-create", "verification-codes", "payments-ledger", "startup", "process", "shutdown", "health", "metrics", "cli", "production-upgrade", "wire-users", "wire-teams", "wire-projects"].map((name) => `packages/server/test/${name}.test.ts`);

// Test files that spy on a server module's export (vi.spyOn needs vite-node's own module objects): run with the
// sources loaded one by one, in projects of their own; every other file that starts a server in-process loads the
// run's bundle of the sources (bundled-sources.ts).
const spyingFiles = ["auth-throttle-bursts", "wire-auth"].map((name) => `packages/server/test/${name}.test.ts`);
const BUNDLED = { plugins: [bundledSources()] };

// A server test that takes 2–3 s alone took over 30 s beside other suites on a two-core machine at load 17–20
// (the published SDK's team scenario, every flow's mail rendered from a project's template). Every test waits for
// conditions, never for fixed time, so the room costs nothing when things are fast; a hang still fails.
const NODE_TEST_TIMEOUT = 90_000;
// expect.poll waits for a condition (a page ticks a checklist, a count reaches its figure): one second, vitest's
// default, was not always enough for a page on a loaded machine. It costs nothing when the condition comes sooner.
const POLL_TIMEOUT = 30_000;

const FILE_ENVIRONMENT = "packages/server/test/support/file-environment.setup.ts";
const isolateFiles = process.env.LATCHKEY_TEST_ISOLATE_FILES === "1";

/** The threads the pool keeps: `workers`, or fewer when `--maxWorkers` on the command line asks for fewer (tinypool refuses a minimum above the maximum). */
function keptWorkers(workers: number): number {
  const index = process.argv.findIndex((arg) => /^--max-?workers(=|$)/i.test(arg));
  if (index < 0) return workers;
  const value = process.argv[index]!.includes("=") ? process.argv[index]!.split("=")[1]! : (process.argv[index + 1] ?? "");
  const asked = value.endsWith("%") ? Math.floor((availableParallelism() * Number.parseFloat(value)) / 100) : Number.parseInt(value, 10);
  return Number.isFinite(asked) ? Math.max(1, Math.min(workers, asked)) : workers;
}

// Workspace packages resolve to their TypeScript sources (the `source` export condition), not to their built dist/.
// Each project sets it: inline projects do not inherit the root config.
const SOURCES = { resolve: { conditions: ["source", ...defaultClientConditions] }, ssr: { resolve: { conditions: ["source", ...defaultServerConditions] } } };

export default defineConfig({
  ...SOURCES,
  test: {
    // The suites mostly wait: on argon2 in libuv's pool, on PostgreSQL, on SMTP. Four workers on two cores
    // finish the whole run in ~60 % of the time the default (cores - 1) takes. Each project runs its files in
    // worker threads (below), not child processes: a file's start costs less (a 20-file sample of the server
    // suite: 65 s against 74 s), and the code under test starts its own processes where it needs them.
    maxWorkers: 4,
    // A project's files share its worker threads, one file after another (isolate: false), instead of a fresh thread
    // per file: the thread's V8 heap, the bundle of the sources (bundled-sources.ts) and the code V8 compiled for the
    // last file serve the next, which halved the CPU of the server files (24 files: 113 → 62 s; the PGlite project).
    // Every file still starts its own servers and databases; what a file changes in process.env is undone after it
    // (support/file-environment.setup.ts). Threads above minWorkers are ended whenever they are idle, and tinypool
    // failed the run with "Terminating worker thread" when that raced a file's start: the pool keeps all four.
    // LATCHKEY_TEST_ISOLATE_FILES=1 gives each file a fresh thread again (debugging, A/B: bench/node-suite.mjs).
    minWorkers: keptWorkers(4),
    poolOptions: { threads: { isolate: isolateFiles } },
    // One migrated database for the run (PGlite, and PostgreSQL when given), which every test server starts from,
    // the email sandbox's library script and the bundled server, made once for the run, side by side
    // (run-setup.global.ts: test-databases, email-library and server-bundle.global.ts).
    globalSetup: ["packages/server/test/support/run-setup.global.ts"],
    projects: [
      // The packages' and scripts' few Node-side files, in one project (vitest runs one project after another, and each
      // start of one cost the run a few seconds of a fresh worker thread): the protocol's schemas and errors; the
      // repository's own scripts (scripts/: finding the browser the browser tests use); the elements' bundle budget,
      // manifest and messages; server rendering of the React package (no DOM), and its lowest supported React; and
      // @latchkey/next's pieces that need no Next.js server (its pages are tested in demo/test/next-server-auth). The
      // elements' and React's browser tests run in web-test-runner.
      {
        test: {
          name: "packages and scripts",
          include: ["packages/protocol/test/**/*.test.ts", "scripts/test/**/*.test.ts", "packages/elements/test/**/*.test.ts", "packages/react/test/**/*.test.ts", "packages/next/test/**/*.test.ts"],
          exclude: ["**/*.browser.test.ts", "**/*.e2e.test.ts", "**/node_modules/**"],
          // The elements' bundle budget builds the bundles first when they are missing.
          testTimeout: 120_000,
        },
      },
      // The core's integration tests start a real server in-process, on PGlite.
      { ...BUNDLED, test: { name: "core", include: ["packages/core/test/**/*.test.ts"], exclude: ["**/*.browser.test.ts", "**/node_modules/**"], env: { LATCHKEY_TEST_DB: "pglite" }, testTimeout: NODE_TEST_TIMEOUT, hookTimeout: 60_000 } },
      { ...BUNDLED, test: { name: "server (PGlite)", include: postgresUrl ? [...bothDatabases, ...pgliteOnly, ...databaseFree] : serverTests, exclude: [serverE2e, ...spyingFiles, "**/node_modules/**"], env: { LATCHKEY_TEST_DB: "pglite" }, testTimeout: NODE_TEST_TIMEOUT, hookTimeout: 60_000 } },
      ...(postgresUrl ? [] : [{ test: { name: "server (PGlite, sources)", include: spyingFiles, env: { LATCHKEY_TEST_DB: "pglite" }, testTimeout: NODE_TEST_TIMEOUT, hookTimeout: 60_000 } }]),
      // End-to-end: the demo pages in Debian's Chromium (playwright-core), against a real server and SMTP capture.
      { ...BUNDLED, test: { name: "e2e", include: ["demo/test/**/*.e2e.test.ts", "stories/test/**/*.e2e.test.ts", "packages/elements/test/**/*.e2e.test.ts", "packages/cli/test/**/*.e2e.test.ts", "packages/dashboard/test/**/*.e2e.test.ts", serverE2e], testTimeout: 60_000, hookTimeout: 120_000 } },
      ...(postgresUrl
        ? [
            { ...BUNDLED, test: { name: "server (PostgreSQL)", include: serverTests, exclude: [serverE2e, ...spyingFiles, ...databaseFree, ...pgliteOnly, "**/node_modules/**"], env: { LATCHKEY_TEST_DB: "postgres" }, testTimeout: NODE_TEST_TIMEOUT, hookTimeout: 60_000 } },
            { test: { name: "server (PostgreSQL, sources)", include: spyingFiles, env: { LATCHKEY_TEST_DB: "postgres" }, testTimeout: NODE_TEST_TIMEOUT, hookTimeout: 60_000 } },
          ]
        : []),
    ].map((project) => ({ ...SOURCES, ...project, test: { setupFiles: [FILE_ENVIRONMENT], pool: "threads" as const, expect: { poll: { timeout: POLL_TIMEOUT } }, ...project.test } })),
  },
});
