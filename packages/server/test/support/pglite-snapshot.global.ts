import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { changeSourceOf, connectDatabase } from "../../src/db/connect.js";
import { migrate } from "../../src/db/migrate.js";

/**
 * vitest global setup: one migrated, empty PGlite database dumped to a file for the whole run. Each test
 * server on PGlite starts from it (test-server.ts) instead of running initdb and the migrations again, which
 * took 4–5 s per test file on two cores. The test servers still run `migrate` at start, as production does;
 * on the snapshot it finds nothing to do.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const path = join(tmpdir(), `latchkey-pglite-snapshot-${process.pid}.tar`);
  const db = await connectDatabase({ kind: "pglite", dataDir: undefined });
  try {
    await migrate(db);
    const source = changeSourceOf(db);
    if (source.kind !== "pglite") throw new Error("expected a PGlite database");
    const dump = await source.pglite.dumpDataDir("none");
    await writeFile(path, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await db.destroy();
  }
  process.env.LATCHKEY_TEST_PGLITE_SNAPSHOT = path;
  return async () => {
    await rm(path, { force: true });
  };
}
