import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ANNOUNCED_WRITES } from "../src/db/announced-writes.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

// A request waits for the change feed only after writes to the tables in ANNOUNCED_WRITES (app.ts). A table
// given a change-notification trigger by a migration, but missing from that list, would let a caller's next
// request meet a cache older than its own write: the list must be exactly the migrated triggers.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

it("the tables a request waits for are exactly those whose changes the database announces, operation by operation", async () => {
  const { rows } = await sql<{ table: string; type: number }>`
    select c.relname as "table", t.tgtype as "type"
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
    where p.proname = 'latchkey_notify_change' and not t.tgisinternal`.execute(server.db);
  // pg_trigger.tgtype: bit 2 insert, bit 3 delete, bit 4 update.
  const announced: Record<string, string[]> = {};
  for (const { table, type } of rows) {
    const operations = [type & 4 && "insert", type & 16 && "update", type & 8 && "delete"].filter((op): op is string => Boolean(op));
    announced[table] = [...new Set([...(announced[table] ?? []), ...operations])].sort();
  }
  const listed = Object.fromEntries(Object.entries(ANNOUNCED_WRITES).map(([table, operations]) => [table, [...operations].sort()]));
  expect(listed).toEqual(announced);
});
