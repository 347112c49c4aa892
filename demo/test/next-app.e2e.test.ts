import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { chromiumPath } from "../../scripts/chromium.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "../../packages/server/test/support/test-server.js";
import { CHROMIUM_ARGS } from "./support/demo-e2e.js";

/**
 * The Next.js App Router fixture (demo/next) as a customer's app: built with `next build` against the BUILT
 * packages (`npm run build:packages`: dist/*.js and .d.ts, what `exports` give an app outside the repository),
 * served by `next start`, and used in Debian's Chromium against a real Latchkey server.
 */

const repository = fileURLToPath(new URL("../../", import.meta.url));
// No telemetry and no update checks: the machines reach nothing but the package registry.
const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: "1" };
const PASSWORD = "next to nothing";

let latchkey: TestServer;
let project: TestProject;
let browser: Browser;
let next: ChildProcess | undefined;
let nextUrl: string;

beforeAll(async () => {
  await run("npm", ["run", "build:packages"]);
  await run(process.execPath, ["node_modules/next/dist/bin/next", "build", "demo/next"], NEXT_ENV);
  [latchkey, browser] = await Promise.all([
    startTestServer(),
    chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS }),
  ]);
  // New projects trust localhost pages (127.0.0.1 included), where `next start` listens.
  project = await createTestProject(latchkey, "Next.js fixture");
  const port = await freePort();
  nextUrl = `http://127.0.0.1:${port}/`;
  next = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "demo/next", "--port", String(port), "--hostname", "127.0.0.1"], {
    cwd: repository,
    env: {
      ...process.env,
      ...NEXT_ENV,
      LATCHKEY_BASE_URL: latchkey.url,
      LATCHKEY_PROJECT_ID: project.projectId,
      LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey,
    },
    // A process group of its own, so that stopping it also stops any worker Next starts.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  await untilAnswering(nextUrl, next);
});

afterAll(async () => {
  if (next?.pid && next.exitCode === null) process.kill(-next.pid, "SIGTERM");
  await Promise.all([browser?.close(), latchkey?.close()]);
});

describe("Next.js App Router app", () => {
  it("server-renders the page without errors, with the provider, the sign-in tag and the user still loading", async () => {
    const response = await fetch(nextUrl);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<h1>Latchkey with Next.js</h1>");
    // The provider's appearance is on <auth-app> already in the HTML, so the first paint has the brand colour.
    expect(html).toContain('<auth-app style="--auth-color-primary:#0f766e">');
    expect(html).toContain('<p role="status">Loading…</p>');
    // `noRedirect` is a property Lit declares on the element, so React sets it when the page hydrates (before the
    // user has loaded, which is when a redirect could happen) instead of writing an attribute into the HTML.
    expect(html).toMatch(/<auth-sign-in>\s*<\/auth-sign-in>/);
    // What Next.js writes when rendering failed: its error page, or a component left to the browser with a digest.
    expect(html).not.toContain("__next_error__");
    expect(html).not.toContain("data-dgst");
  });

  it("upgrades the sign-in widget, signs in against the Latchkey server and shows the user from useUser", async () => {
    const email = `next-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await createUser(email);
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(30_000); // a step waits on mail and argon2, seconds apiece on a loaded 2-core machine
    // Hydration mismatches and failed scripts surface as console errors or page errors.
    const problems: string[] = [];
    page.on("console", (message) => message.type() === "error" && problems.push(`${message.text()} (${message.location().url})`));
    page.on("pageerror", (error) => problems.push(error.message));
    try {
      await page.goto(nextUrl);
      await page.getByText("Signed out", { exact: true }).waitFor();
      // The form exists only once the element has upgraded in the browser: the server sent an empty tag.
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      const submit = page.getByRole("button", { name: "Sign in", exact: true });
      expect(await submit.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe("rgb(15, 118, 110)");
      await submit.click();

      // The app's own status line (the widget also says "You are signed in as …").
      await page.getByText(`Signed in as ${email}`, { exact: true }).waitFor();
      await page.getByRole("button", { name: email }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** Runs a command in the repository; its output is shown only when it fails. */
function run(command: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repository, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed (${code}):\n${output}`))));
  });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Waits (≤ 30 s) until `next start` answers, failing early with its output if it exits. */
async function untilAnswering(url: string, child: ChildProcess): Promise<void> {
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${output}`);
    const answered = await fetch(url, { method: "HEAD" }).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`next start did not answer within 30 s:\n${output}`);
}

/** A person with a verified email and a password, made as the customer's backend would (secret server key). */
async function createUser(email: string): Promise<void> {
  const response = await fetch(`${latchkey.url}/api/v1/users`, {
    method: "POST",
    headers: { ...project.headers("server"), "content-type": "application/json" },
    body: JSON.stringify({ primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true, password: PASSWORD }),
  });
  expect(response.ok, await response.clone().text()).toBe(true);
}
