import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setOneConnectionWaitLimit, takeOneConnectionRefusals } from "./support/one-connection-check.js";
import { startTestServer, type TestServer } from "./support/test-server.js";

// The check that gives test servers on PostgreSQL the one connection of embedded PGlite (support/one-connection-check.ts),
// since the API files run on PostgreSQL only: it must catch what would hang on PGlite and let through what would not.
describe.skipIf(process.env.LATCHKEY_TEST_DB !== "postgres")("PGlite's one connection, on a PostgreSQL test server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("answers a query left running by a transaction's callback only once the transaction has ended", async () => {
    const events: string[] = [];
    let background: Promise<unknown> | undefined;
    await server.db.transaction().execute(async (trx) => {
      background = sql`select 1`.execute(server.db).then(() => events.push("query outside answered"));
      await sql`select pg_sleep(0.05)`.execute(trx);
      events.push("transaction's work done");
    });
    events.push("committed");
    await background;
    expect(events).toEqual(["transaction's work done", "committed", "query outside answered"]);
  });

  it("fails a query the callback awaits, naming where it and the transaction began", async () => {
    const previous = setOneConnectionWaitLimit(500);
    try {
      const outcome = server.db.transaction().execute(async () => {
        await server.db.selectFrom("projects").select("id").execute();
      });
      await expect(outcome).rejects.toThrow(/awaited from inside an open transaction's callback[\s\S]*the query[\s\S]*the transaction began here/);
    } finally {
      setOneConnectionWaitLimit(previous);
      // Taken here, so the server's close does not fail the file for the refusal this test caused on purpose.
      expect(takeOneConnectionRefusals()).toHaveLength(1);
    }
  });
});
