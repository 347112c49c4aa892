import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { connectDatabase, type Db } from "../src/db/connect.js";
import { migrate, migrationFiles } from "../src/db/migrate.js";
import { pgliteTemplatePath, TEMPLATE_COPY_MARKER } from "../src/db/pglite-template.js";

// Issue 17, cold start: a new embedded data dir is a copy of a migrated template instead of initdb plus every
// migration. It must be the same database as one migrated from scratch.
const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";
const root = mkdtempSync(join(tmpdir(), "latchkey-template-"));
const templatesDir = join(root, "templates");

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The paths of the files under `dir`, relative to it. */
const filesOf = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));

async function openFromTemplate(dataDir: string, announced: string[], sharedBuffers?: string): Promise<Db> {
  return connectDatabase({ kind: "pglite", dataDir, template: { templatesDir, announce: (message) => announced.push(message) }, sharedBuffers });
}

/** Everything the migrations define, as PostgreSQL describes it. */
async function schemaOf(db: Db) {
  const rows = async (query: ReturnType<typeof sql>) => (await query.execute(db)).rows;
  return {
    columns: await rows(sql`select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
      where table_schema = 'public' order by table_name, column_name`),
    constraints: await rows(sql`select conrelid::regclass::text as "table", conname, pg_get_constraintdef(oid) as def from pg_constraint
      where connamespace = 'public'::regnamespace order by 1, 2`),
    indexes: await rows(sql`select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by 1, 2`),
    triggers: await rows(sql`select tgrelid::regclass::text as "table", tgname, pg_get_triggerdef(oid) as def from pg_trigger
      where not tgisinternal order by 1, 2`),
    functions: await rows(sql`select proname, pg_get_functiondef(oid) as def from pg_proc where pronamespace = 'public'::regnamespace order by 1`),
    migrations: await rows(sql`select name from schema_migrations order by name`),
  };
}

describe.skipIf(onPostgres)("a new data dir made from the PGlite template", () => {
  it("has the schema and migrations of one migrated from scratch, with nothing left to apply", async () => {
    const announced: string[] = [];
    const fromTemplate = await openFromTemplate(join(root, "from-template"), announced);
    const fromScratch = await connectDatabase({ kind: "pglite", dataDir: join(root, "from-scratch") });
    try {
      expect(await migrate(fromTemplate)).toEqual([]);
      expect(await migrate(fromScratch)).toEqual(migrationFiles());
      const expected = await schemaOf(fromScratch);
      expect(expected.columns.length).toBeGreaterThan(50);
      expect(expected.triggers.length).toBeGreaterThan(0);
      expect(await schemaOf(fromTemplate)).toEqual(expected);
      // Nothing but the schema: the server seeds the project and makes signing keys per data dir.
      expect((await sql<{ n: number }>`select count(*)::int as n from projects`.execute(fromTemplate)).rows[0]!.n).toBe(0);
      expect((await sql<{ n: number }>`select count(*)::int as n from signing_key_generations`.execute(fromTemplate)).rows[0]!.n).toBe(0);
    } finally {
      await fromTemplate.destroy();
      await fromScratch.destroy();
    }
    expect(announced).toHaveLength(1); // the template was made, once
    expect(readdirSync(templatesDir).filter((name) => !name.includes(".building-"))).toHaveLength(1);
  }, 120_000);

  it("copies the same template into the next new data dir without making it again, and keeps their data apart", async () => {
    const announced: string[] = [];
    const first = await openFromTemplate(join(root, "first"), announced);
    // The test servers' smaller cache (test-server.ts) is the only thing that differs between their PGlite and the server's.
    const second = await openFromTemplate(join(root, "second"), announced, "8MB");
    try {
      const sharedBuffers = async (db: Db) => (await sql<{ shared_buffers: string }>`show shared_buffers`.execute(db)).rows[0]!.shared_buffers;
      expect([await sharedBuffers(first), await sharedBuffers(second)]).toEqual(["32MB", "8MB"]);
      expect(await migrate(first)).toEqual([]);
      await sql`insert into projects (id, display_name) values ('only-in-first', 'First')`.execute(first);
      expect((await sql<{ n: number }>`select count(*)::int as n from projects`.execute(second)).rows[0]!.n).toBe(0);
    } finally {
      await first.destroy();
      await second.destroy();
    }
    expect(announced).toEqual([]);
  }, 120_000);

  it("is never changed by the data dirs made from it, whose files it shares with them", async () => {
    // A new data dir links the template databases' files (template0 and template1, which nothing opens) instead of
    // copying them: whatever a data dir goes through must leave the template as it was.
    const template = pgliteTemplatePath(templatesDir);
    const contents = () => Object.fromEntries(filesOf(template).map((path) => [path, createHash("sha256").update(readFileSync(join(template, path))).digest("hex")]));
    await (await openFromTemplate(join(root, "warm-up"), [])).destroy(); // the template exists
    const before = contents();
    const dataDir = join(root, "shares-files");
    for (let start = 0; start < 2; start++) {
      const db = await openFromTemplate(dataDir, []);
      try {
        expect(await migrate(db)).toEqual([]);
        await sql`insert into projects (id, display_name) values (${`project-${start}`}, 'Project')`.execute(db);
        await sql`vacuum analyze`.execute(db);
        await sql`checkpoint`.execute(db);
      } finally {
        await db.destroy();
      }
    }
    expect(contents()).toEqual(before);
    // The data dir holds every file the template does.
    expect(filesOf(dataDir).filter((path) => path !== "latchkey.lock")).toEqual(expect.arrayContaining(Object.keys(before).filter((path) => !path.endsWith("pg_internal.init"))));
  }, 120_000);

  it("is made by npm's postinstall, so that the first start on a machine only copies it", async () => {
    // As `npm ci` runs it, but into a templates dir of this test's own.
    const installTemplatesDir = join(root, "made-at-install");
    const repository = fileURLToPath(new URL("../../../", import.meta.url));
    const install = () => promisify(execFile)("npm", ["run", "--silent", "postinstall", "--", installTemplatesDir], { cwd: repository });
    expect((await install()).stdout).toContain("Creating the embedded database template");
    expect(existsSync(pgliteTemplatePath(installTemplatesDir))).toBe(true);
    // Installing again (another package added) keeps the template of the same migrations.
    expect((await install()).stdout).toBe("");

    const announced: string[] = [];
    const db = await connectDatabase({ kind: "pglite", dataDir: join(root, "after-install"), template: { templatesDir: installTemplatesDir, announce: (message) => announced.push(message) } });
    try {
      expect(await migrate(db)).toEqual([]);
    } finally {
      await db.destroy();
    }
    expect(announced).toEqual([]); // copied, not made
  }, 120_000);

  it("redoes a copy that was cut short", async () => {
    const dataDir = join(root, "cut-short");
    // What a process killed mid-copy leaves: the marker and part of the files.
    const announced: string[] = [];
    await (await openFromTemplate(join(root, "complete"), announced)).destroy();
    rmSync(join(root, "complete", "latchkey.lock"), { force: true });
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, TEMPLATE_COPY_MARKER), "");
    cpSync(join(root, "complete", "base"), join(dataDir, "base"), { recursive: true });
    writeFileSync(join(dataDir, "PG_VERSION"), "garbage from a torn write\n");

    const db = await openFromTemplate(dataDir, announced);
    try {
      expect(await migrate(db)).toEqual([]);
    } finally {
      await db.destroy();
    }
    expect(readdirSync(dataDir)).not.toContain(TEMPLATE_COPY_MARKER);
  }, 120_000);
});
