// `npm run test:browser`: the browser tests (packages/*/test/**/*.browser.test.ts) in Chromium,
// against one real Latchkey server (in-memory PGlite) and one real SMTP capture started for the whole run.
import { mkdtempSync, rmSync } from "node:fs";
import { register } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { esbuildPlugin } from "@web/dev-server-esbuild";
import { chromeLauncher } from "@web/test-runner-chrome";
import { tsImport } from "tsx/esm/api";
import { chromiumPath } from "./scripts/chromium.mjs";
import { BASE_CHROMIUM_ARGS } from "./demo/test/support/chromium-args.mjs";

// The browser every browser test uses (scripts/chromium.mjs: CHROME_PATH, Debian's chromium, or Chrome).
const CHROMIUM = chromiumPath();
// Workspace packages resolve to their TypeScript sources, not their built dist/: in the server this process
// starts (Node, through tsx) and in the pages (nodeResolve's export conditions, below).
register("./packages/elements/test/support/source-condition-hooks.mjs", import.meta.url);
const { reactAsEsmPlugin } = await tsImport("./packages/elements/test/support/react-as-esm-plugin.ts", import.meta.url);

/** Starts the server and SMTP capture once and answers the `latchkey:*` commands of harness.ts. */
function latchkeyServerPlugin() {
  let services;
  return {
    name: "latchkey-server",
    async serverStart() {
      // tsx runs the server from its TypeScript source, as the Node test suites do.
      const module = await tsImport("./packages/elements/test/support/browser-test-services.ts", import.meta.url);
      services = await module.startBrowserTestServices();
    },
    async serverStop() {
      await services?.close();
    },
    executeCommand({ command, payload }) {
      return services?.execute(command, payload);
    },
  };
}

// A profile of its own per run: no state from an earlier run or from a person's browser.
const userDataDir = mkdtempSync(join(tmpdir(), "latchkey-wtr-chromium-"));
process.once("exit", () => rmSync(userDataDir, { recursive: true, force: true }));

export default {
  files: ["packages/*/test/**/*.browser.test.ts"],
  nodeResolve: { exportConditions: ["source", "development"] },
  // Two cores: one browser, one test file at a time; the server and argon2 need the other core.
  concurrentBrowsers: 1,
  concurrency: 1,
  testsFinishTimeout: 300_000,
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: CHROMIUM,
        headless: true,
        userDataDir,
        // The e2e tests' switches (puppeteer, which this launcher drives, passes its own --disable-features).
        args: BASE_CHROMIUM_ARGS,
      },
    }),
  ],
  plugins: [reactAsEsmPlugin(), esbuildPlugin({ ts: true, target: "es2022", tsconfig: "tsconfig.base.json" }), latchkeyServerPlugin()],
  // Lit's development build (better errors in tests) says so once per file; nothing else is dropped.
  filterBrowserLogs: ({ args }) => !(typeof args[0] === "string" && args[0].startsWith("Lit is in dev mode")),
  testFramework: { config: { ui: "bdd", timeout: 20_000 } },
  // Libraries written for bundlers (nanostores, React) read process.env.NODE_ENV, which a page does not have.
  // readable-failures.ts keeps a failed comparison of DOM nodes from stalling the run (see its comment).
  testRunnerHtml: (testFramework) =>
    `<!doctype html><html><head><script>window.process = { env: { NODE_ENV: "development" } };</script></head><body><script type="module" src="${testFramework}"></script><script type="module" src="/packages/elements/test/support/readable-failures.ts"></script></body></html>`,
};
