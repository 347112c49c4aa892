import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "../../packages/server/test/support/test-server.js";
import { freePort } from "../../packages/server/test/support/ports.js";
import { CLIENT_PACKAGES, gzippedJavaScript, installApp, packClientPackages, removeQuietly, run, startProcess, untilAnswering, tarballProblems, writeNextApp, writeViteApp, type Started, type Tarball } from "./support/packed-apps.js";
import { releaseChromium, sharedChromium } from "./support/shared-chromium.js";

/**
 * The client packages as packages (issue 34): packed once for the file, installed from their tarballs (not
 * workspace links) into a fresh Vite + React + TypeScript app, which type-checks, builds and signs a person in, in
 * Chromium, against a Latchkey server. The CLI runs from its tarball. The Next.js App Router app (a minute of
 * `next build`, and the suite builds the in-repository one already) only under `npm run release:check`
 * (LATCHKEY_RELEASE_CHECK=1).
 */

const WITH_NEXT = process.env.LATCHKEY_RELEASE_CHECK === "1";
const PASSWORD = "packed and shipped";

let work: string;
let tarballs: Tarball[];
let latchkey: TestServer;
let project: TestProject;
let browser: Browser;
const started: Started[] = [];

const tarball = (...names: string[]) => tarballs.filter((entry) => names.includes(entry.name));

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "latchkey-client-packages-"));
  const services = Promise.all([startTestServer(), sharedChromium()]);
  try {
    tarballs = await packClientPackages(join(work, "tarballs"));
  } finally {
    [latchkey, browser] = await services;
  }
  project = await createTestProject(latchkey, "Packed apps");
  for (const entry of tarballs) console.log(`${entry.name}: ${(entry.bytes / 1024).toFixed(1)} KB packed, ${entry.files} files`);
}, 600_000);

afterAll(async () => {
  await Promise.all([...started.map((process) => process.stop()), releaseChromium(browser), latchkey?.close()]);
  if (work) removeQuietly(work);
});

/** Signs a new person in on the app's page at `url` and expects the app to show them. */
async function signsIn(url: string): Promise<void> {
  const email = `packed-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const created = await fetch(`${latchkey.url}/api/v1/users`, {
    method: "POST",
    headers: { ...project.headers("server"), "content-type": "application/json" },
    body: JSON.stringify({ primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true, password: PASSWORD }),
  });
  expect(created.status).toBe(201);
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(30_000); // argon2 takes seconds on a loaded 2-core machine
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  try {
    await page.goto(url);
    await page.getByText("Signed out", { exact: true }).waitFor();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByText(`Signed in as ${email}`, { exact: true }).waitFor();
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
}

describe("the tarballs", () => {
  it("carry what their exports and bins name, a README, no tests, and one version for every package", () => {
    expect(tarballs.map((entry) => entry.name).sort()).toEqual([...CLIENT_PACKAGES].sort());
    expect(Object.fromEntries(tarballs.map((entry) => [entry.name, tarballProblems(entry)]))).toEqual(Object.fromEntries(CLIENT_PACKAGES.map((name) => [name, []])));
    // One version: every tarball's file name carries the same one.
    expect(new Set(tarballs.map((entry) => entry.path.replace(/^.*-(\d+\.\d+\.\d+[^/]*)\.tgz$/, "$1"))).size).toBe(1);
  });
});

describe("Vite + React + TypeScript app from the tarballs", () => {
  let app: string;

  beforeAll(async () => {
    app = join(work, "vite-app");
    mkdirSync(app);
    writeViteApp(app);
    const seconds = await installApp(app, ["react", "react-dom", "vite", "typescript", "@types/react", "@types/react-dom"], tarball("@latchkey/protocol", "@latchkey/core", "@latchkey/elements", "@latchkey/react", "@latchkey/cli"));
    console.log(`Vite app: npm install of the tarballs (--prefer-offline) took ${seconds.toFixed(1)} s`);
  }, 300_000);

  it("type-checks and builds; the packages add their size to the bundle", async () => {
    await run("npx", ["tsc", "-p", "tsconfig.json"], app);
    const env = { VITE_LATCHKEY_PROJECT_ID: project.projectId, VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey, VITE_LATCHKEY_BASE_URL: latchkey.url };
    await run("npx", ["vite", "build", "--logLevel", "warn"], app, env);
    await run("npx", ["vite", "build", "--logLevel", "warn"], app, { BASELINE: "1" });
    const withLatchkey = gzippedJavaScript(join(app, "dist"));
    const baseline = gzippedJavaScript(join(app, "dist-baseline"));
    console.log(`Vite app: ${(withLatchkey / 1024).toFixed(1)} KB gzip of JavaScript, of which Latchkey (AuthProvider, AuthSignIn, useUser) adds ${((withLatchkey - baseline) / 1024).toFixed(1)} KB`);
    // The README's figure for AuthProvider + AuthSignIn is 28 KB gzip: a package that pulled in every element would add about twice that.
    expect(withLatchkey - baseline).toBeLessThan(40 * 1024);
  }, 300_000);

  it("signs a person in, in Chromium", async () => {
    const port = await freePort();
    const preview = startProcess("npx", ["vite", "preview", "--host", "127.0.0.1", "--port", String(port), "--strictPort"], app, {});
    started.push(preview);
    await untilAnswering(`http://127.0.0.1:${port}/`, preview);
    await signsIn(`http://127.0.0.1:${port}/`);
  });

  it("runs the CLI from its tarball (npx latchkey)", async () => {
    const usage = await run("npx", ["--no-install", "latchkey", "--help"], app);
    expect(usage).toContain("latchkey login --app <app url>");
  });
});

describe.runIf(WITH_NEXT)("Next.js App Router app from the tarballs (npm run release:check)", () => {
  let app: string;

  beforeAll(async () => {
    app = join(work, "next-app");
    writeNextApp(app);
    const seconds = await installApp(app, ["next", "react", "react-dom", "typescript", "@types/react", "@types/react-dom", "@types/node"], tarball("@latchkey/protocol", "@latchkey/core", "@latchkey/elements", "@latchkey/react", "@latchkey/next"));
    console.log(`Next.js app: npm install of the tarballs (--prefer-offline) took ${seconds.toFixed(1)} s`);
  }, 300_000);

  it("type-checks, builds and signs a person in, in Chromium", async () => {
    await run("npx", ["tsc", "-p", "tsconfig.json", "--noEmit"], app);
    await run("npx", ["next", "build"], app, { NEXT_TELEMETRY_DISABLED: "1" });
    const port = await freePort();
    const env = { NEXT_TELEMETRY_DISABLED: "1", LATCHKEY_BASE_URL: latchkey.url, LATCHKEY_PROJECT_ID: project.projectId, LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey };
    const next = startProcess("npx", ["next", "start", "--port", String(port), "--hostname", "127.0.0.1"], app, env);
    started.push(next);
    await untilAnswering(`http://127.0.0.1:${port}/`, next);
    await signsIn(`http://127.0.0.1:${port}/`);
  }, 600_000);
});
