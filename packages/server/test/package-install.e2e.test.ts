import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, withBuildLock } from "../../../demo/test/support/ensure-built.js";
import { freePort } from "./support/ports.js";
import { releaseChromium, sharedChromium } from "../../../demo/test/support/shared-chromium.js";

/**
 * The server as a package (issue 34): `npm pack -w @latchkey/server`, the tarball installed into an empty folder
 * from the npm cache the repository's own install filled (`--prefer-offline`: no network when the cache has every
 * package), `latchkey-server` started from that folder in production mode, a user signed up through the API, and
 * the dashboard it serves signing that user in, in Chromium. Packed and installed once for the file.
 */
const repository = fileURLToPath(new URL("../../../", import.meta.url));
const SEED_KEY = "pk-package-install-test-key";
const PASSWORD = "correct horse battery";

let work: string;
let server: ChildProcess | undefined;
let output = "";
let baseUrl: string;
let browser: Browser | undefined;

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    // Without the npm_* variables of the `npm test` around this run: npm would take them as its own settings.
    const outer = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")));
    const child = spawn(command, args, { cwd, env: { ...outer, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.stderr.on("data", (d) => (text += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${text}`))));
  });
}

/**
 * isolated-vm's install step fetches a prebuilt addon from GitHub and compiles it (about a minute) when it
 * cannot, as here, where only the npm registry is reachable. The addon `npm ci` compiled for this repository fits
 * this machine's Node, so the install is handed it the way prebuild-install takes a local prebuild (what a
 * user's install downloads), without the minute of compiling; the app asks for that same isolated-vm version.
 */
const isolatedVm = join(repository, "node_modules", "isolated-vm");
const versionOf = (dir: string) => (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
const isolatedVmVersion = versionOf(isolatedVm);

/**
 * The first start on an empty data dir makes the embedded database's template (initdb and every migration in
 * WebAssembly: 30 s and more on a loaded 2-core machine), kept in the package's folder. The repository's install
 * made the same template for its PGlite (scripts/pglite-template.mjs; its name hashes the migrations and PGlite's
 * version): with the app on that PGlite version, a copy of it is found instead (the template's making is tested
 * in the server suite). A template that does not match is simply not used.
 */
const pgliteVersion = versionOf(join(repository, "node_modules", "@electric-sql", "pglite"));
const repositoryTemplates = join(repository, "node_modules", ".cache", "latchkey");

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "latchkey-package-"));
  // The elements' bundles and the dashboard, built as the other browser tests build them (once, under their lock).
  await ensureBuilt(["packages/elements/dist/latchkey.iife.js", "packages/dashboard/dist/index.html"]);
  // Packing copies those builds: under the builds' lock, so no other test file rewrites them meanwhile.
  await withBuildLock(() => run("npm", ["pack", "--workspace", "@latchkey/server", "--pack-destination", work], repository));
  const tarball = readdirSync(work).find((file) => file.endsWith(".tgz"))!;

  const prebuilds = join(work, "prebuilds");
  mkdirSync(prebuilds);
  const prebuild = `isolated-vm-v${isolatedVmVersion}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run("tar", ["-czf", join(prebuilds, prebuild), "-C", isolatedVm, "out/isolated_vm.node"], repository);

  const app = join(work, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, dependencies: { "isolated-vm": isolatedVmVersion, "@electric-sql/pglite": pgliteVersion } }));
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", join(work, tarball)], app, { npm_config_isolated_vm_local_prebuilds: prebuilds });

  if (existsSync(repositoryTemplates)) {
    cpSync(repositoryTemplates, join(app, "node_modules/@latchkey/server/dist/package/runtime/node_modules/.cache/latchkey"), { recursive: true });
  }

  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = spawn(join(app, "node_modules", ".bin", "latchkey-server"), ["start"], {
    cwd: app,
    env: {
      PATH: process.env.PATH ?? "",
      LATCHKEY_PORT: String(port),
      LATCHKEY_HOST: "127.0.0.1",
      LATCHKEY_PUBLIC_URL: baseUrl,
      LATCHKEY_SERVER_SECRET: "a-production-secret-of-at-least-32-characters",
      LATCHKEY_SEED_PUBLISHABLE_CLIENT_KEY: SEED_KEY,
      LATCHKEY_LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (d) => (output += d));
  server.stderr!.on("data", (d) => (output += d));
  await waitForHealth();
  browser = await sharedChromium();
}, 600_000);

afterAll(async () => {
  await releaseChromium(browser);
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

async function waitForHealth(): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server?.exitCode !== null) throw new Error(`latchkey-server exited (${server?.exitCode}):\n${output}`);
    const ok = await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`latchkey-server did not answer /health within 120 s:\n${output}`);
}

describe("the packed server, installed from its tarball", () => {
  it("starts in production mode on embedded PGlite and serves the elements' bundles and the API reference", async () => {
    expect(output).toContain("Latchkey is running.");
    expect(output).not.toContain("dev mode");
    expect(output).toContain("embedded PGlite in ./latchkey-data");
    for (const path of ["/static/v1/latchkey.iife.js", "/static/v1/latchkey-sign-in.iife.js", "/api/v1/docs/scalar.js"]) {
      expect((await fetch(baseUrl + path)).status, path).toBe(200);
    }
    expect(await (await fetch(`${baseUrl}/ready`)).json()).toEqual({ status: "ready" });
  });

  it("signs a user up through the API, and the dashboard signs that user in", async () => {
    const email = `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const signUp = await fetch(`${baseUrl}/api/v1/auth/password/sign-up`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-stack-project-id": "internal", "x-stack-access-type": "client", "x-stack-publishable-client-key": SEED_KEY },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(signUp.status).toBe(200);
    expect(await signUp.json()).toMatchObject({ user_id: expect.any(String), access_token: expect.any(String), refresh_token: expect.any(String) });

    const page = await browser!.newPage();
    try {
      await page.goto(`${baseUrl}/dashboard/`);
      await page.getByRole("heading", { name: "Sign in to manage your projects" }).waitFor();
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("heading", { name: "Projects", exact: true }).waitFor();
      await page.getByRole("button", { name: email }).waitFor();
    } finally {
      await page.close();
    }
  });
});
