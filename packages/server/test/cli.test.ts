import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { connectDatabase } from "../src/db/connect.js";
import { migrationFiles } from "../src/db/migrate.js";
import { closedPort } from "./support/ports.js";
import { bundledEntry } from "./support/server-process.js";

/**
 * `latchkey-server` (src/cli.ts, the packaged server's bin; package-install.e2e.test.ts runs it from the tarball),
 * here from the sources: `migrate` on PostgreSQL from several processes at once, the refusal of code older than
 * its database, and `check`'s lines and exit code.
 */
const serverDir = fileURLToPath(new URL("..", import.meta.url));
// tsx by its file: the commands run in folders of their own, where `--import tsx` would not resolve.
const TSX = new URL("../../../node_modules/tsx/dist/loader.mjs", import.meta.url).href;
const PRODUCTION = { LATCHKEY_SERVER_SECRET: "a-production-secret-of-at-least-32-characters" };
const postgresUrl = process.env.LATCHKEY_TEST_DATABASE_URL;
const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres" && postgresUrl !== undefined;
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string>, cwd = serverDir): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const bundled = bundledEntry("cli");
    const child = spawn(process.execPath, [...(bundled ? [bundled] : ["--conditions=source", "--import", TSX, join(serverDir, "src/cli.ts")]), ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "", LATCHKEY_LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-cli-"));
  dirs.push(dir);
  return dir;
}

/** A new, empty database on the suite's PostgreSQL server; dropped when the test ends. */
async function emptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `latchkey_cli_${crypto.randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresUrl!);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

describe.runIf(onPostgres)("latchkey-server migrate, on PostgreSQL", () => {
  it("two processes started at once on an empty database apply every migration exactly once", async () => {
    const database = await emptyDatabase();
    try {
      const env = { ...PRODUCTION, LATCHKEY_DATABASE_URL: database.url };
      const [first, second] = await Promise.all([cli(["migrate"], env), cli(["migrate"], env)]);
      expect([first.code, second.code]).toEqual([0, 0]);
      const outputs = [first.output, second.output];
      const count = migrationFiles().length;
      // One applied them all; the other waited on the advisory lock and found nothing left.
      expect(outputs.filter((o) => o.includes(`Applied ${count} migration(s)`))).toHaveLength(1);
      expect(outputs.filter((o) => o.includes(`is up to date (${count} migrations applied).`))).toHaveLength(1);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const rows = await client.query<{ name: string }>("select name from schema_migrations order by name");
      await client.end();
      expect(rows.rows.map((row) => row.name)).toEqual(migrationFiles());
    } finally {
      await database.drop();
    }
  }, 120_000);
});

describe.runIf(process.env.LATCHKEY_TEST_DB === "pglite")("latchkey-server, from the sources", () => {
  it("refuses to start or migrate with code older than its database, naming what the database has", async () => {
    const cwd = tempDir();
    expect((await cli(["migrate", "--dev"], {}, cwd)).code).toBe(0);
    // A newer release applied a migration this code does not have.
    const db = await connectDatabase({ kind: "pglite", dataDir: join(cwd, "latchkey-data") });
    await sql`insert into schema_migrations (name) values ('9999_from_a_newer_release.sql')`.execute(db);
    await db.destroy();

    const line =
      "The database was migrated by a newer version of Latchkey (it has 9999_from_a_newer_release.sql, which this version does not know): run that version or a later one, or restore a backup taken before the upgrade.";
    const migrate = await cli(["migrate", "--dev"], {}, cwd);
    expect(migrate.code).toBe(1);
    expect(migrate.output.trim()).toBe(line);
    const start = await cli(["start", "--dev"], { LATCHKEY_PORT: "0" }, cwd);
    expect(start.code).toBe(1);
    expect(start.output.trim()).toBe(line);
  }, 120_000);

  it("start in production mode names every setting it lacks and exits 2", async () => {
    const { code, output } = await cli([], {}, tempDir());
    expect(code).toBe(2);
    expect(output).toContain("Latchkey runs in production mode and needs these settings to start:");
    expect(output).toContain("  - LATCHKEY_SERVER_SECRET: at least 32 characters");
    expect(output).toContain("  - LATCHKEY_PUBLIC_URL: the URL people reach this server at");
    expect(output).toContain("latchkey-server start --dev");
  }, 60_000);

  it("check prints one line per check and exits 1 when the database or the public URL cannot be reached", async () => {
    const [dbPort, urlPort] = [await closedPort(), await closedPort()];
    const { code, output } = await cli(["check"], {
      ...PRODUCTION,
      LATCHKEY_DATABASE_URL: `postgres://latchkey@127.0.0.1:${dbPort}/latchkey`,
      LATCHKEY_PUBLIC_URL: `http://127.0.0.1:${urlPort}`,
    });
    expect(code).toBe(1);
    const lines = output.trim().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(`ok   configuration: production mode, public URL http://127.0.0.1:${urlPort}`);
    expect(lines[1]).toMatch(new RegExp(`^FAIL database: cannot use PostgreSQL 127\\.0\\.0\\.1:${dbPort}/latchkey: .*ECONNREFUSED`));
    expect(lines[2]).toMatch(/^warn SMTP: none configured/);
    expect(lines[3]).toMatch(new RegExp(`^FAIL public URL: http://127\\.0\\.0\\.1:${urlPort}/health unreachable: `));
  }, 60_000);

  it("check fails on a configuration production refuses, and passes when everything answers", async () => {
    const refused = await cli(["check"], {});
    expect(refused.code).toBe(1);
    expect(refused.output.trim()).toMatch(/^FAIL configuration: production mode needs LATCHKEY_SERVER_SECRET: .*; LATCHKEY_PUBLIC_URL: /);

    // A stand-in for the server behind the public URL (before the first start a proxy's error page counts too).
    const health = createServer((_, response) => response.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}'));
    await new Promise<void>((resolve) => health.listen(0, "127.0.0.1", resolve));
    const port = (health.address() as { port: number }).port;
    try {
      const passed = await cli(["check"], { ...PRODUCTION, LATCHKEY_PUBLIC_URL: `http://127.0.0.1:${port}` }, tempDir());
      expect(passed.code).toBe(0);
      expect(passed.output).toContain("ok   database: embedded PGlite in ./latchkey-data reached");
      expect(passed.output).toContain(`ok   public URL: http://127.0.0.1:${port}/health answered HTTP 200`);
    } finally {
      health.close();
    }
  }, 60_000);
});
