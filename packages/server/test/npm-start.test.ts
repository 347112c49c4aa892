import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ensureDemoBuilt } from "../../../demo/test/support/demo-build.js";
import { ensureDashboardBuilt } from "../../dashboard/test/support/dashboard-build.js";
import { WELL_KNOWN_DEV_KEYS } from "../src/env.js";

// Issue 17, cold start: `npm start` builds only what changed (scripts/start.mjs) and runs the bundled server
// (packages/server/scripts/bundle.mjs), not the sources through tsx. The other process tests run the sources;
// this one checks what a user runs. Once per run (PGlite project): it uses the repository's real builds.
const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";
const repository = fileURLToPath(new URL("../../../", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "latchkey-npm-start-"));
const running: ChildProcess[] = [];

afterAll(() => {
  for (const child of running) if (groupAlive(child.pid!)) process.kill(-child.pid!, "SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

/** `npm start` in the repository, as a user types it; resolves once /api/v1 answers 200. */
async function npmStart(dataDir: string): Promise<{ url: string; output: () => string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn("npm", ["start"], {
    cwd: repository,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LATCHKEY_PORT: String(port), LATCHKEY_HOST: "127.0.0.1", LATCHKEY_DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: npm, the shell it runs and the server are stopped together.
    detached: true,
  });
  running.push(child);
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  // Builds may run first (a source changed since the last start); on two busy cores they took up to a minute.
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm start did not serve:\n${output}`);
    try {
      if ((await fetch(`${url}/api/v1`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    output: () => output,
    // npm itself ends on the signal; the server (same group) shuts down after it. Resolves once every process of
    // the group is gone.
    stop: async () => {
      process.kill(-child.pid!, "SIGTERM");
      await exited;
      while (groupAlive(child.pid!)) await new Promise((r) => setTimeout(r, 50));
    },
  };
}

function groupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

const client = {
  "x-stack-project-id": "internal",
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": WELL_KNOWN_DEV_KEYS.publishableClientKey,
  "content-type": "application/json",
};

describe.skipIf(onPostgres)("npm start", () => {
  it("serves from the bundled server, and on the next start builds nothing when nothing changed", async () => {
    // The end-to-end tests build the demo and the dashboard when their sources changed; waiting for theirs keeps the two from
    // writing the same files at once.
    await ensureDemoBuilt();
    await ensureDashboardBuilt();
    const dataDir = join(root, "data");
    const first = await npmStart(dataDir);
    expect(first.output()).toContain("Latchkey is running in dev mode.");

    // A user's first steps, through the bundled dependencies: password hashing (argon2), tokens (jose), the
    // elements bundle and the React demo the builds made.
    const credentials = JSON.stringify({ email: "first-start@example.com", password: "correct horse battery" });
    const signUp = await fetch(`${first.url}/api/v1/auth/password/sign-up`, { method: "POST", headers: client, body: credentials });
    expect(signUp.status).toBe(200);
    const signIn = await fetch(`${first.url}/api/v1/auth/password/sign-in`, { method: "POST", headers: client, body: credentials });
    expect(signIn.status).toBe(200);
    const { access_token } = (await signIn.json()) as { access_token: string };
    const me = await fetch(`${first.url}/api/v1/users/me`, { headers: { ...client, "x-stack-access-token": access_token } });
    expect(((await me.json()) as { primary_email: string }).primary_email).toBe("first-start@example.com");
    // A passkey ceremony loads @simplewebauthn/server on first use, from a chunk of the bundle beside main.js
    // (packages/server/scripts/bundle.mjs).
    const admin = { "x-stack-project-id": "internal", "x-stack-access-type": "admin", "x-stack-super-secret-admin-key": WELL_KNOWN_DEV_KEYS.superSecretAdminKey, "content-type": "application/json" };
    const enable = await fetch(`${first.url}/api/v1/internal/projects/current`, { method: "PATCH", headers: admin, body: JSON.stringify({ config: { passkey_enabled: true } }) });
    expect(enable.status).toBe(200);
    const ceremony = await fetch(`${first.url}/api/v1/auth/passkey/initiate-passkey-authentication`, { method: "POST", headers: client, body: "{}" });
    expect(ceremony.status).toBe(200);
    const { options_json } = (await ceremony.json()) as { options_json: { challenge: string; rpId: string } };
    expect(options_json.challenge).toMatch(/^[\w-]{20,}$/);
    expect((await fetch(`${first.url}/static/v1/latchkey.iife.js`)).status).toBe(200);
    expect(await (await fetch(`${first.url}/demo/react/`)).text()).toContain("<script");
    expect(await (await fetch(`${first.url}/dashboard/`)).text()).toContain('id="latchkey-dashboard-config"');
    await first.stop();
    expect(first.output()).toContain('"msg":"shutting down"');
    expect(existsSync(join(dataDir, "latchkey.lock"))).toBe(false); // released by a clean stop

    const second = await npmStart(dataDir);
    try {
      expect(second.output()).not.toContain("Building");
      const again = await fetch(`${second.url}/api/v1/auth/password/sign-in`, { method: "POST", headers: client, body: credentials });
      expect(again.status).toBe(200); // the data dir kept the user
    } finally {
      await second.stop();
    }
  }, 600_000);
});
