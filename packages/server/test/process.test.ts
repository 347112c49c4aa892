import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { WELL_KNOWN_DEV_KEYS } from "../src/env.js";
import { killServerProcesses, runServerProcess as runServer, waitUntilServing } from "./support/server-process.js";

// The server runs as a user runs it, in child processes (see support/server-process.ts).
const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";
const tempDirs: string[] = [];
const databases: string[] = [];

afterAll(async () => {
  killServerProcesses();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  if (databases.length === 0) return;
  const client = new pg.Client({ connectionString: process.env.LATCHKEY_TEST_DATABASE_URL });
  await client.connect();
  for (const name of databases) await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
});

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
    expect(first.output()).toMatch(/Dashboard: +http:\/\/\S+\/dashboard\//);
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
