import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killServerProcesses, runServerProcess, waitUntilServing, type ServerProcess } from "./support/server-process.js";
import { reachablePublicUrl, startTestServer } from "./support/test-server.js";

// Issue 17: two servers on one embedded data dir lost confirmed sign-ups; start-up errors printed stack traces.
// These run real server processes on PGlite data dirs; the PostgreSQL project checks an unusable URL only.
const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";
const root = mkdtempSync(join(tmpdir(), "latchkey-startup-"));

afterAll(() => {
  killServerProcesses();
  rmSync(root, { recursive: true, force: true });
});

/** What a failed start printed: exactly one line, no stack trace. */
async function failedStart(server: ServerProcess): Promise<string> {
  const code = await server.exited;
  expect(code).not.toBe(0);
  const lines = server.output().trim().split("\n");
  expect(lines, server.output()).toHaveLength(1);
  return lines[0]!;
}

describe.skipIf(onPostgres)("one server process per embedded data dir", () => {
  it("refuses a second process with one line, and takes over the lock of a process killed with -9", async () => {
    const dataDir = join(root, "shared");
    const first = runServerProcess({ LATCHKEY_DATA_DIR: dataDir });
    await waitUntilServing(first);
    expect(existsSync(join(dataDir, "latchkey.lock"))).toBe(true);

    const second = runServerProcess({ LATCHKEY_DATA_DIR: dataDir });
    const line = await failedStart(second);
    expect(line).toContain(`The data dir ${dataDir} is in use by another Latchkey process (pid ${first.child.pid}`);
    expect(line).toContain("LATCHKEY_DATABASE_URL");
    expect((await fetch(first.url + "/api/v1")).ok).toBe(true);

    first.child.kill("SIGKILL");
    await first.exited;
    const third = runServerProcess({ LATCHKEY_DATA_DIR: dataDir });
    await waitUntilServing(third);
    third.child.kill("SIGTERM");
    expect(await third.exited).toBe(0);
    expect(existsSync(join(dataDir, "latchkey.lock"))).toBe(false); // released on a clean stop
  }, 300_000);

  it("names a port in use in one line, and leaves the data dir to the next start", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", () => resolve()));
    const port = (holder.address() as AddressInfo).port;
    const dataDir = join(root, "port-in-use");
    try {
      const line = await failedStart(runServerProcess({ LATCHKEY_DATA_DIR: dataDir, LATCHKEY_PORT: String(port) }));
      expect(line).toBe(`Port ${port} on 127.0.0.1 is in use: stop what listens there or set LATCHKEY_PORT to a free port.`);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
    const next = runServerProcess({ LATCHKEY_DATA_DIR: dataDir });
    await waitUntilServing(next);
    expect((await fetch(next.url + "/api/v1")).ok).toBe(true);
    next.child.kill("SIGTERM");
    await next.exited;
  }, 120_000);

  it("starts a test server on another port when the one reachablePublicUrl() found was taken meanwhile", async () => {
    const vars = await reachablePublicUrl();
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(Number(vars.LATCHKEY_PORT), "127.0.0.1", () => resolve()));
    try {
      const server = await startTestServer(vars);
      try {
        expect(server.port).not.toBe(Number(vars.LATCHKEY_PORT));
        expect(server.env.publicUrl).toBe(`http://127.0.0.1:${server.port}`);
        expect((await fetch(`${server.env.publicUrl}/api/v1`)).ok).toBe(true);
      } finally {
        await server.close();
      }
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  }, 120_000);

  it("names a data dir it cannot create", async () => {
    const file = join(root, "a-file");
    writeFileSync(file, "not a directory");
    const line = await failedStart(runServerProcess({ LATCHKEY_DATA_DIR: join(file, "data") }));
    expect(line).toMatch(/^Cannot create the data dir .*a-file\/data .*Check LATCHKEY_DATA_DIR/);
  }, 120_000);

  it("refuses a directory that holds other files", async () => {
    const dir = join(root, "project-folder");
    mkdirSync(dir);
    writeFileSync(join(dir, "package.json"), "{}");
    const line = await failedStart(runServerProcess({ LATCHKEY_DATA_DIR: dir }));
    expect(line).toBe(`The data dir ${dir} holds other files and no Latchkey database. Point LATCHKEY_DATA_DIR at an empty or new directory.`);
  }, 120_000);

  it("names a corrupted database", async () => {
    const dir = join(root, "corrupted");
    mkdirSync(dir);
    writeFileSync(join(dir, "PG_VERSION"), "not a version\n");
    const line = await failedStart(runServerProcess({ LATCHKEY_DATA_DIR: dir }));
    expect(line).toMatch(new RegExp(`^The data dir ${dir} is not a usable Latchkey database \\(.*\\)\\. Point LATCHKEY_DATA_DIR`));
  }, 120_000);
});

describe("a database URL that cannot be used", () => {
  it("is named in one line with what to check", async () => {
    const line = await failedStart(runServerProcess({ LATCHKEY_DATABASE_URL: "postgres://latchkey:secret@127.0.0.1:1/latchkey" }));
    expect(line).toMatch(/^Cannot use the database 127\.0\.0\.1:1\/latchkey \(LATCHKEY_DATABASE_URL\): .*ECONNREFUSED.*Check that PostgreSQL runs there/);
    expect(line).not.toContain("secret");
  }, 120_000);
});
