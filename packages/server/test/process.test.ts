import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { WELL_KNOWN_DEV_KEYS } from "../src/env.js";

// These tests run the server as a user does (`node --conditions=source --import tsx src/main.ts`, as `npm start`
// does) in child processes. Not through the `tsx` command: it relays signals to a second process and SIGKILLs
// it when that does not acknowledge within 30 ms, which a busy machine misses (exit 143 instead of a clean shutdown).
const serverDir = fileURLToPath(new URL("..", import.meta.url));
const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";
const children: ChildProcess[] = [];
const tempDirs: string[] = [];
const databases: string[] = [];

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  if (databases.length === 0) return;
  const client = new pg.Client({ connectionString: process.env.LATCHKEY_TEST_DATABASE_URL });
  await client.connect();
  for (const name of databases) await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
});

interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

let nextPort = 18_400 + Math.floor(Math.random() * 1000) * 4 + (onPostgres ? 5000 : 0);

function runServer(env: Record<string, string>): ServerProcess {
  const port = String(nextPort++);
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", "src/main.ts"], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? "", LATCHKEY_PORT: port, LATCHKEY_HOST: "127.0.0.1", LATCHKEY_LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
}

// A cold start compiles the TypeScript sources and boots the database; on two busy cores (the whole suite
// running beside it) that has taken more than 30 s, so each start gets 90 s.
async function waitUntilServing(server: ServerProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    try {
      if ((await fetch(server.url + "/api/v1")).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start:\n${server.output()}`);
}

const adminHeaders = {
  "x-stack-project-id": "internal",
  "x-stack-access-type": "admin",
  "x-stack-super-secret-admin-key": WELL_KNOWN_DEV_KEYS.superSecretAdminKey,
};

async function storageEnv(): Promise<Record<string, string>> {
  if (!onPostgres) {
    const dir = mkdtempSync(join(tmpdir(), "latchkey-"));
    tempDirs.push(dir);
    return { LATCHKEY_DATA_DIR: join(dir, "data") };
  }
  const adminUrl = process.env.LATCHKEY_TEST_DATABASE_URL!;
  const name = `latchkey_proc_${crypto.randomUUID().replaceAll("-", "")}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  databases.push(name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { LATCHKEY_DATABASE_URL: url.toString() };
}

describe("the server process", () => {
  it("prints the essentials, keeps its data across a restart, and stops cleanly on SIGTERM", async () => {
    const storage = await storageEnv();
    const first = runServer(storage);
    await waitUntilServing(first);
    expect(first.output()).toContain("/api/v1");
    expect(first.output()).toContain("Project id: internal");
    expect(first.output()).toContain(WELL_KNOWN_DEV_KEYS.publishableClientKey);

    const created = await fetch(first.url + "/api/v1/internal/api-keys", {
      method: "POST",
      headers: { ...adminHeaders, "content-type": "application/json" },
      body: JSON.stringify({ description: "survives restarts", expires_at_millis: Date.now() + 60_000, has_publishable_client_key: true, has_secret_server_key: false, has_super_secret_admin_key: false }),
    }).then((r) => r.json());

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    await expect(fetch(first.url + "/api/v1")).rejects.toThrow();

    const second = runServer(storage);
    await waitUntilServing(second);
    const listed = await fetch(second.url + "/api/v1/internal/api-keys", { headers: adminHeaders }).then((r) => r.json());
    expect(listed.items.map((k: { id: string }) => k.id)).toContain(created.id);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    // Two cold starts of a real process (each a PGlite boot): allow for a loaded machine.
  }, 240_000);

  it("refuses to start with a bad configuration value and names it", async () => {
    const server = runServer({ LATCHKEY_PORT: "not-a-port", LATCHKEY_DATA_DIR: "/nonexistent-never-used" });
    expect(await server.exited).toBe(2);
    expect(server.output()).toContain("Invalid Latchkey configuration");
    expect(server.output()).toContain("LATCHKEY_PORT");
  });

  it.runIf(onPostgres)("lets several processes start together on one empty database", async () => {
    const storage = await storageEnv();
    const servers = [runServer(storage), runServer(storage), runServer(storage)];
    await Promise.all(servers.map((s) => waitUntilServing(s)));
    for (const server of servers) {
      const response = await fetch(server.url + "/api/v1/projects/current", { headers: adminHeaders });
      expect(response.status).toBe(200);
    }
    const client = new pg.Client({ connectionString: storage.LATCHKEY_DATABASE_URL });
    await client.connect();
    const migrations = await client.query("select name, count(*)::int as n from schema_migrations group by name");
    await client.end();
    expect(migrations.rows.length).toBeGreaterThan(0);
    for (const row of migrations.rows) expect(row.n).toBe(1);
    for (const server of servers) server.child.kill("SIGTERM");
    expect(await Promise.all(servers.map((s) => s.exited))).toEqual([0, 0, 0]);
  }, 150_000);
});
