import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS } from "../../../demo/test/support/demo-e2e.js";
import { chromiumPath } from "../../../scripts/chromium.mjs";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "../../server/test/support/test-server.js";

/**
 * The lowest React that package.json's `peerDependencies` (and the README) claim, tested: installed from the
 * registry into node_modules/.cache once (the repository's own React is the newest), the README's app
 * (support/readme-app.ts) bundled with it by esbuild, rendered to HTML by its react-dom/server in Node, and
 * hydrated by its react-dom in Chromium against a real Latchkey server.
 */

const repository = fileURLToPath(new URL("../../../", import.meta.url));
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { peerDependencies: { react: string } };
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const PASSWORD = "lowest react";

/** `>=19.0.0` → `19.0.0`: the range must start at an exact version, the one tested here. */
const lowest = /^(?:>=|\^)(\d+\.\d+\.\d+)$/.exec(pkg.peerDependencies.react)?.[1];

let server: TestServer;
let project: TestProject;
let browser: Browser;
let page: Server;
let pageUrl: string;
let email: string;
let renderedHtml: string;
let serverReact: string;

beforeAll(async () => {
  if (!lowest) return;
  const react = await installReact(lowest);
  [server, browser] = await Promise.all([startTestServer(), chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })]);
  project = await createTestProject(server, "Lowest React");
  email = `lowest-react-${Date.now()}@example.com`;
  const created = await fetch(`${server.url}/api/v1/users`, {
    method: "POST",
    headers: { ...project.headers("server"), "content-type": "application/json" },
    body: JSON.stringify({ primary_email: email, primary_email_auth_enabled: true, password: PASSWORD }),
  });
  expect(created.status).toBe(201);
  const options = { projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: server.url };
  const { serverScript, clientScript } = await bundle(react);
  ({ html: renderedHtml, version: serverReact } = JSON.parse(await node(serverScript, JSON.stringify(options))) as { html: string; version: string });
  const document = `<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body><div id="root">${renderedHtml}</div><script>globalThis.appOptions = ${JSON.stringify(options)};</script><script type="module" src="/client.js"></script></body></html>`;
  page = createServer((request, response) => {
    if (request.url === "/client.js") response.writeHead(200, { "content-type": "text/javascript" }).end(clientScript);
    else if (request.url === "/") response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(document);
    // The browser asks for a favicon: no content, rather than a 404 it would report as an error.
    else response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
  // localhost, which a new project trusts.
  pageUrl = `http://localhost:${(page.address() as AddressInfo).port}/`;
}, 600_000);

afterAll(async () => {
  page?.closeAllConnections();
  await Promise.all([browser?.close(), server?.close(), page && new Promise((resolve) => page.close(resolve))]);
});

describe("the lowest React the package claims", () => {
  it("is the same in peerDependencies and the README: an exact lowest version, and 'Needs React <major.minor> or later'", () => {
    expect(lowest, `peerDependencies.react is ${pkg.peerDependencies.react}`).toBeDefined();
    expect(readme).toContain(`Needs React ${lowest!.split(".").slice(0, 2).join(".")} or later`);
  });

  it("server-renders the README's app and hydrates it in Chromium without a hydration error, signed out, then signed in after a reload", async () => {
    expect(serverReact).toBe(lowest);
    expect(renderedHtml).toContain("<p>Loading…</p>");
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      // React's own reports (hydration mismatches among them) and uncaught errors.
      const errors: string[] = [];
      tab.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
      tab.on("console", (message) => void (message.type() === "error" && errors.push(`console: ${message.text()} (${message.location().url})`)));
      await tab.goto(pageUrl);
      expect(await tab.evaluate(() => (globalThis as { clientReact?: string }).clientReact)).toBe(lowest);
      await tab.locator("auth-sign-in input[name=email]").fill(email, { timeout: 30_000 });
      await tab.locator("auth-sign-in input[name=password]").fill(PASSWORD);
      await tab.locator("auth-sign-in [part~=submit]").click();
      await tab.getByText(`Hello ${email}`).waitFor({ timeout: 30_000 });
      // Signed in from the start: the server's "Loading…" is hydrated, then the user shows.
      await tab.reload();
      await tab.getByText(`Hello ${email}`).waitFor({ timeout: 30_000 });
      expect(await tab.evaluate(() => (globalThis as { hydrationErrors?: string[] }).hydrationErrors)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});

/**
 * react and react-dom at `version` in node_modules/.cache/latchkey-react-<version> (installed once, from the npm
 * cache or the registry); their directories.
 */
async function installReact(version: string): Promise<{ react: string; reactDom: string }> {
  const dir = join(repository, "node_modules/.cache", `latchkey-react-${version}`);
  const modules = join(dir, "node_modules");
  const installed = (name: string) => existsSync(join(modules, name, "package.json")) && JSON.parse(readFileSync(join(modules, name, "package.json"), "utf8")).version === version;
  if (!installed("react") || !installed("react-dom")) {
    // Installed next to it, then moved in place: an interrupted install is never taken for a finished one.
    const staging = `${dir}.${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, "package.json"), JSON.stringify({ private: true }));
    await run("npm", ["install", `react@${version}`, `react-dom@${version}`, "--no-package-lock", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"], staging);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  }
  return { react: join(modules, "react"), reactDom: join(modules, "react-dom") };
}

/** The app bundled with that React: a Node script that prints its HTML, and the browser script that hydrates it. */
async function bundle(react: { react: string; reactDom: string }): Promise<{ serverScript: string; clientScript: string }> {
  const common = {
    bundle: true,
    format: "esm" as const,
    write: false,
    logLevel: "silent" as const,
    // The workspace packages from their sources, as the other tests use them; React from the installed copy.
    conditions: ["source"],
    alias: { react: react.react, "react-dom": react.reactDom },
    absWorkingDir: repository,
  };
  const resolveDir = fileURLToPath(new URL("./support/", import.meta.url));
  const [serverBuild, clientBuild] = await Promise.all([
    build({
      ...common,
      platform: "node",
      define: { "process.env.NODE_ENV": '"production"' },
      // react-dom/server is CommonJS and requires Node's modules.
      banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
      stdin: {
        resolveDir,
        loader: "ts",
        contents: `import { createElement as h, version } from "react";
          import { renderToString } from "react-dom/server";
          import { App } from "./readme-app.ts";
          process.stdout.write(JSON.stringify({ html: renderToString(h(App, JSON.parse(process.argv[2]))), version }));`,
      },
    }),
    build({
      ...common,
      platform: "browser",
      // React's development build: its hydration warnings say what differed.
      define: { "process.env.NODE_ENV": '"development"' },
      stdin: {
        resolveDir,
        loader: "ts",
        contents: `import { createElement as h, version } from "react";
          import { hydrateRoot } from "react-dom/client";
          import { App } from "./readme-app.ts";
          globalThis.clientReact = version;
          globalThis.hydrationErrors = [];
          hydrateRoot(document.getElementById("root"), h(App, globalThis.appOptions), {
            onRecoverableError: (error) => globalThis.hydrationErrors.push(String(error?.message ?? error)),
          });`,
      },
    }),
  ]);
  const scripts = mkdtempSync(join(tmpdir(), "latchkey-lowest-react-"));
  const serverScript = join(scripts, "server.mjs");
  writeFileSync(serverScript, serverBuild.outputFiles![0]!.text);
  return { serverScript, clientScript: clientBuild.outputFiles![0]!.text };
}

/** Runs a Node script with one argument; its output. */
async function node(script: string, argument: string): Promise<string> {
  try {
    return await run(process.execPath, [script, argument], repository);
  } finally {
    rmSync(join(script, ".."), { recursive: true, force: true });
  }
}

function run(command: string, args: string[], cwd: string): Promise<string> {
  // Without npm's own variables (npm test sets npm_config_*, which a nested npm would read as its settings).
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("npm_")));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let errors = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(" ")} failed (${code}):\n${errors}${output}`))));
  });
}
