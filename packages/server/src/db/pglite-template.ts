import { createHash, randomUUID } from "node:crypto";
import { constants, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { copyFile, link as linkFile, mkdir, readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { Kysely } from "kysely";
import { DATA_DIR_LOCK_FILE } from "./data-dir-lock.js";
import { migrate, migrationFiles, MIGRATIONS_DIR } from "./migrate.js";
import { PGLITE_START_PARAMS, PGliteDialect } from "./pglite-dialect.js";
import type { Database } from "./schema.js";

/**
 * A new embedded data dir starts as a copy of a template: a PGlite database that ran initdb and every
 * migration, and holds nothing else — no project, no keys, no users (the server seeds the `internal`
 * project and makes signing keys per data dir, after this). initdb in WebAssembly took ~2.2 s of a ~3 s first
 * start; filling a data dir from the template's 40 MB takes 0.1–0.5 s (issue 17, cold start; `copyTree` below).
 *
 * The template is made once per machine and set of migrations: by `npm ci` / `npm install` (the root's
 * postinstall runs scripts/pglite-template.mjs), or else the first time a server starts on an empty data dir
 * (after a migration was added, say). It is kept in the repository's `node_modules/.cache/latchkey/`
 * (git-ignored; `npm ci` removes it with node_modules, and makes it again). Its name carries a hash of the
 * migrations and of the PGlite version, so a new migration or PGlite release makes a new one.
 * `schema_migrations.applied_at` in a copied data dir is when the template was made. Anything that goes wrong
 * with the template (no write access to the cache, a full disk) only means the data dir is made the slow
 * way, in place.
 */
const TEMPLATES_DIR = fileURLToPath(new URL("../../../../node_modules/.cache/latchkey/", import.meta.url));

export interface TemplateOptions {
  /** Told when a template is made (a few seconds), so the start is not silent meanwhile. */
  announce: (message: string) => void;
  /** Where templates are kept (tests use their own); the repository's cache by default. */
  templatesDir?: string;
}
const TEMPLATE_PREFIX = "pglite-template-";
/** Written before the template's files are copied in and removed after: a copy cut short is redone. */
export const TEMPLATE_COPY_MARKER = "latchkey-template-copy.partial";

/** Where the template of the current migrations is (or will be) kept. */
export function pgliteTemplatePath(templatesDir = TEMPLATES_DIR): string {
  const hash = createHash("sha256");
  hash.update(`pglite ${pgliteVersion()}\n`);
  for (const file of migrationFiles()) hash.update(`${file}\n`).update(readFileSync(MIGRATIONS_DIR + file)).update("\n");
  return join(templatesDir, TEMPLATE_PREFIX + hash.digest("hex").slice(0, 16));
}

function pgliteVersion(): string {
  // The package's `exports` do not include its package.json; it sits one level above the resolved entry (dist/).
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  return (JSON.parse(readFileSync(join(dirname(entry), "..", "package.json"), "utf8")) as { version: string }).version;
}

/**
 * Fills `dataDir` (created, locked, and empty but for the lock — or holding a copy cut short) from the
 * template, making the template first when there is none. Returns false when it did not (the caller lets
 * PGlite create the database in place).
 */
export async function fillFromTemplate(dataDir: string, options: TemplateOptions): Promise<boolean> {
  const entries = readdirSync(dataDir).filter((name) => name !== DATA_DIR_LOCK_FILE);
  if (entries.includes(TEMPLATE_COPY_MARKER)) emptyDataDir(dataDir);
  else if (entries.length > 0) return false;
  const template = await ensureTemplate(options);
  if (!template) return false;
  writeFileSync(join(dataDir, TEMPLATE_COPY_MARKER), "");
  try {
    await copyTree(template, dataDir, "");
  } catch {
    // The template went away mid-copy (a newer one replaced it), or the data dir filled up: start over in
    // place; a data dir that cannot take the files fails there with its own message.
    emptyDataDir(dataDir);
    return false;
  }
  rmSync(join(dataDir, TEMPLATE_COPY_MARKER));
  return true;
}

/**
 * The folders of the databases PostgreSQL's initdb makes beside Latchkey's (`postgres`, OID 5): template1 and
 * template0, whose OIDs 1 and 4 are fixed. Nothing ever connects to them (PGlite is one connection, to `postgres`;
 * they are only copied by a CREATE DATABASE), so no page of theirs is ever dirtied, written, or replayed from the WAL
 * (the WAL a new data dir replays starts after the template's last checkpoint): a new data dir links their files to
 * the template's instead of copying them, half the template's 1,211 files. Making a file is what a copy costs (on
 * this repository's benchmark machine ~0.7 ms of kernel time each, a link ~0.04 ms: `node bench/cold-start.mjs`).
 */
const LINKED_DIRS = new Set([join("base", "1"), join("base", "4")]);

/**
 * Copies the template's tree into the data dir (a reflink where the file system has them), linking the files of
 * LINKED_DIRS (a copy where a link cannot be made: another file system, no permission). Asynchronous: the files
 * are made in libuv's threads while PGlite loads (connect.ts).
 */
async function copyTree(template: string, dataDir: string, relative: string): Promise<void> {
  const link = LINKED_DIRS.has(relative);
  for (const entry of await readdir(join(template, relative), { withFileTypes: true })) {
    const path = join(relative, entry.name);
    const [from, to] = [join(template, path), join(dataDir, path)];
    if (entry.isDirectory()) {
      await mkdir(to);
      await copyTree(template, dataDir, path);
    } else if (!link) {
      await copyFile(from, to, constants.COPYFILE_FICLONE);
    } else {
      await linkFile(from, to).catch(() => copyFile(from, to, constants.COPYFILE_FICLONE));
    }
  }
}

/** Removes everything but the lock: what an unfinished copy left. */
function emptyDataDir(dataDir: string): void {
  for (const name of readdirSync(dataDir)) if (name !== DATA_DIR_LOCK_FILE) rmSync(join(dataDir, name), { recursive: true, force: true });
}

/**
 * The template of the current migrations, made first when there is none; undefined when it cannot be made.
 * Also run at install (scripts/pglite-template.mjs), so that a first start finds it made.
 */
export async function ensureTemplate({ templatesDir = TEMPLATES_DIR, announce }: TemplateOptions): Promise<string | undefined> {
  let path: string;
  try {
    path = pgliteTemplatePath(templatesDir);
    if (existsSync(path)) return path;
    mkdirSync(templatesDir, { recursive: true });
  } catch {
    return undefined;
  }
  announce("Creating the embedded database template (once per machine and set of migrations, a few seconds)");
  // Made under a name of its own and renamed into place when complete, so a process that starts meanwhile
  // never copies half a template; when two make one at once, the first rename wins and the other is dropped.
  const building = `${path}.building-${randomUUID()}`;
  try {
    const pglite = await PGlite.create({ dataDir: building, startParams: PGLITE_START_PARAMS });
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
    try {
      await migrate(db);
    } finally {
      await db.destroy();
    }
    try {
      renameSync(building, path);
    } catch (error) {
      if (!existsSync(path)) throw error;
    }
    removeOtherTemplates(templatesDir, path);
    return path;
  } catch {
    return undefined;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/** A template in the making for longer than this was left by a process that was stopped meanwhile. */
const ABANDONED_BUILD_MS = 10 * 60_000;

/** Templates of earlier migrations are never used again, nor half-made ones of stopped processes. */
function removeOtherTemplates(templatesDir: string, current: string): void {
  for (const name of readdirSync(templatesDir)) {
    const path = join(templatesDir, name);
    if (!name.startsWith(TEMPLATE_PREFIX) || path === current) continue;
    // Another process's template in the making (`….building-<uuid>`) is left to it while it may still be working.
    if (name.includes(".building-") && Date.now() - statSync(path).mtimeMs < ABANDONED_BUILD_MS) continue;
    rmSync(path, { recursive: true, force: true });
  }
}
