import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { WELL_KNOWN_DEV_KEYS } from "../src/env.js";
import { childCommands, killServerProcesses, runServerProcess, waitUntilServing } from "./support/server-process.js";

// Issue 35, start time: a start says how long each phase took (LATCHKEY_LOG_LEVEL=debug), and what the first
// request does not need waits for its own first use: the email rendering sandbox (a child process), the
// development OpenID provider (oidc-provider), the API reference page (Scalar's script). Each still works then.
const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";
const root = mkdtempSync(join(tmpdir(), "latchkey-start-deferred-"));

afterAll(() => {
  killServerProcesses();
  rmSync(root, { recursive: true, force: true });
});


type LogLine = { msg?: string; phase?: string; part?: string; ms?: number; cpuMs?: number };
function logLines(output: string): LogLine[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

async function until<T>(what: string, check: () => T | undefined, output: () => string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what} did not happen:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const client = {
  "x-stack-project-id": "internal",
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": WELL_KNOWN_DEV_KEYS.publishableClientKey,
  "content-type": "application/json",
};

describe.skipIf(onPostgres)("a start defers what the first request does not need", () => {
  it("logs each start phase; the email sandbox, the development OpenID provider and Scalar start on first use, and work", async () => {
    const server = runServerProcess({ LATCHKEY_DATA_DIR: join(root, "data"), LATCHKEY_LOG_LEVEL: "debug", LATCHKEY_DEV_MODE: "true" });
    await waitUntilServing(server);
    const pid = server.child.pid!;

    // One line per phase, in order, each with its wall and CPU time.
    const phases = await until("the phase lines", () => {
      const lines = logLines(server.output()).filter((line) => line.msg === "start phase");
      return lines.some((line) => line.phase === "background workers started") ? lines : undefined;
    }, server.output);
    expect(phases.map((line) => line.phase)).toEqual([
      "server code loaded",
      "PGlite open",
      "migration check",
      "internal project seeded",
      "change feed open",
      "signing keys loaded",
      "caches and routes made",
      "listening",
      "background workers started",
    ]);
    for (const line of phases) expect(typeof line.ms === "number" && typeof line.cpuMs === "number", JSON.stringify(line)).toBe(true);
    // Serving, and nothing of the deferred parts started.
    expect(childCommands(pid).filter((command) => command.includes("sandbox-process"))).toEqual([]);
    expect(logLines(server.output()).filter((line) => line.msg === "started on first use")).toEqual([]);

    // The email sandbox: a sign-up's verification mail is rendered in it, and reaches the dev outbox.
    const address = `deferred-${crypto.randomUUID()}@example.com`;
    const signUp = await fetch(`${server.url}/api/v1/auth/password/sign-up`, {
      method: "POST",
      headers: client,
      body: JSON.stringify({ email: address, password: "correct horse battery", verification_callback_url: `${server.url}/handler/email-verification` }),
    });
    expect(signUp.status, await signUp.clone().text()).toBe(200);
    const outbox = await (async () => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const page = await (await fetch(`${server.url}/dev/outbox?to=${encodeURIComponent(address)}`)).text();
        if (page.includes("Verify your email")) return page;
        if (Date.now() > deadline) throw new Error(`no verification mail in the outbox:\n${page}\n${server.output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    expect(outbox).toContain("Verify your email");
    expect(childCommands(pid).filter((command) => command.includes("sandbox-process")).length).toBeGreaterThan(0);

    // The development OpenID provider: its discovery document names its issuer.
    const discovery = await fetch(`${server.url}/dev/oauth/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(((await discovery.json()) as { issuer: string }).issuer).toMatch(/\/dev\/oauth$/);
    const started = await until("the provider's first-use line", () => {
      const line = logLines(server.output()).find((l) => l.msg === "started on first use" && l.part === "development OpenID provider");
      return line;
    }, server.output);
    expect(typeof started.ms).toBe("number");
    // On the Node versions our engines name: oidc-provider 9 warned "Unsupported runtime" on Node 20 (issue 35).
    expect(server.output()).not.toMatch(/oidc-provider (WARNING|NOTICE)/);

    // The API reference page and Scalar's script, read from disk on their first request.
    const docs = await fetch(`${server.url}/api/v1/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain("./docs/scalar.js");
    const script = await fetch(`${server.url}/api/v1/docs/scalar.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("javascript");
    expect((await script.text()).length).toBeGreaterThan(100_000);

    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 300_000);
});
