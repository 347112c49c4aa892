import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./support/test-server.js";

// Issue 17: `/health` (alive) and `/ready` (database reachable, migrations applied) for load balancers.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const get = async (path: string) => {
  const response = await fetch(server.url + path);
  return { status: response.status, body: await response.json() };
};

describe("health and readiness", () => {
  it("says alive, and ready while every migration is applied", async () => {
    expect(await get("/health")).toEqual({ status: 200, body: { status: "ok" } });
    expect(await get("/ready")).toEqual({ status: 200, body: { status: "ready" } });
  });

  it("is not ready while the database lacks a migration this code expects", async () => {
    await sql`delete from schema_migrations where name = '0020_email_case_insensitive.sql'`.execute(server.db);
    try {
      expect(await get("/ready")).toEqual({ status: 503, body: { status: "unavailable", reason: "Migrations not applied: 0020_email_case_insensitive.sql." } });
      expect((await get("/health")).status).toBe(200);
    } finally {
      await sql`insert into schema_migrations (name) values ('0020_email_case_insensitive.sql')`.execute(server.db);
    }
    expect((await get("/ready")).status).toBe(200);
  });
});
