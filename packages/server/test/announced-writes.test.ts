import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { Db } from "../src/db/connect.js";
import type { Database } from "../src/db/schema.js";
import { scopedToRequest } from "../src/db/request-scope.js";

// A request whose writes may have sent change notifications waits for them before it answers (app.ts), so
// its caller's next request never meets a cache older than the write; a request that only read, or wrote
// rows no cache holds, does not wait. It is decided from each query's tree, so no database is needed here;
// announced-writes-triggers.test.ts checks the list of announced tables against the database's triggers.
const db: Db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

async function waitsAfter(run: (db: Db) => Promise<unknown>): Promise<boolean> {
  const { db: scoped, scope } = scopedToRequest(db, {});
  await run(scoped);
  return scope.announcedChanges;
}

const newThrottle = { key: "k", failures: 1, last_failure_at: new Date(), blocked_until: new Date() };

describe("what a request waits for the change feed after", () => {
  it("not reads, with or without a read-only `with`", async () => {
    expect(await waitsAfter((d) => d.selectFrom("users").selectAll().execute())).toBe(false);
    expect(await waitsAfter((d) => d.with("u", (qb) => qb.selectFrom("users").select("id")).selectFrom("u").selectAll().execute())).toBe(false);
    expect(await waitsAfter((d) => sql`select 1`.execute(d))).toBe(false);
  });

  it("changes to rows that caches are built from", async () => {
    expect(await waitsAfter((d) => d.updateTable("users").set({ display_name: "x" }).execute())).toBe(true);
    expect(await waitsAfter((d) => d.insertInto("contact_channels").values({ project_id: "p", user_id: "u", type: "email", value: "a@b.c" }).execute())).toBe(true);
    expect(await waitsAfter((d) => d.deleteFrom("sessions").execute())).toBe(true);
    expect(await waitsAfter((d) => d.updateTable("sessions").set({ last_used_at: new Date() }).execute())).toBe(true);
    expect(await waitsAfter((d) => sql`update projects set display_name = 'x'`.execute(d))).toBe(true);
  });

  it("a select that reads back what its `with` changed", async () => {
    const updateBeside = (d: Db) =>
      d
        .with("a", (qb) => qb.updateTable("teams").set({ display_name: "x" }))
        .selectFrom("users")
        .select("id")
        .execute();
    expect(await waitsAfter(updateBeside)).toBe(true);
  });

  it("raw SQL it cannot place: a writing `with`, a quoted table name", async () => {
    expect(await waitsAfter((d) => sql`with x as (delete from auth_throttles returning 1) select * from x`.execute(d))).toBe(true);
    expect(await waitsAfter((d) => sql`delete from "auth_throttles"`.execute(d))).toBe(true);
  });

  it("not rows that no cache holds: a new session, a counted failure, a user's last activity", async () => {
    const newSession = { project_id: "p", user_id: "u", refresh_token_hash: new Uint8Array(32), expires_at: null };
    expect(await waitsAfter((d) => d.insertInto("sessions").values(newSession).execute())).toBe(false);
    expect(await waitsAfter((d) => d.insertInto("auth_throttles").values(newThrottle).execute())).toBe(false);
    expect(await waitsAfter((d) => sql`insert into auth_throttles (key) values ('k') on conflict (key) do update set failures = 2`.execute(d))).toBe(false);
    expect(await waitsAfter((d) => sql`delete from auth_throttles where key = 'k'`.execute(d))).toBe(false);
    expect(await waitsAfter((d) => d.updateTable("users").set({ last_active_at: new Date() }).execute())).toBe(false);
    // What a sign-in runs (services/sessions.ts): the session, the activity, and the user read back.
    const signIn = (d: Db) =>
      d
        .with("s", (qb) => qb.insertInto("sessions").values(newSession).returningAll())
        .with("a", (qb) => qb.updateTable("users").set({ last_active_at: new Date() }).where("id", "=", "u"))
        .selectFrom("s")
        .innerJoin("users", "users.id", "s.user_id")
        .selectAll("s")
        .execute();
    expect(await waitsAfter(signIn)).toBe(false);
    // A password sign-in's brute-force counters, written in a CTE of its two statements (services/auth-throttle.ts).
    const slotsWithLookup = (d: Db) =>
      d
        .with("taken", (() => sql`(insert into auth_throttles as t (key) values ('k') on conflict (key) do update set in_flight = 1 returning t.key)`) as never)
        .selectFrom("users")
        .selectAll()
        .execute();
    expect(await waitsAfter(slotsWithLookup)).toBe(false);
    const releasedWithSession = (d: Db) =>
      d
        .with("s", (qb) => qb.insertInto("sessions").values(newSession).returningAll())
        .with("released", (() => sql`(update auth_throttles set in_flight = 0 where key = 'k')`) as never)
        .selectFrom("s")
        .selectAll()
        .execute();
    expect(await waitsAfter(releasedWithSession)).toBe(false);
    // The same shapes writing rows that caches hold.
    const usersInCte = (d: Db) =>
      d
        .with("u", (() => sql`(update users set display_name = 'x')`) as never)
        .selectFrom("sessions")
        .selectAll()
        .execute();
    expect(await waitsAfter(usersInCte)).toBe(true);
    expect(await waitsAfter((d) => d.with("w", (() => sql`(with x as (delete from users) update auth_throttles set in_flight = 0)`) as never).selectFrom("sessions").selectAll().execute())).toBe(true);
    // The activity with anything else is a change like any other.
    expect(await waitsAfter((d) => d.updateTable("users").set({ last_active_at: new Date(), display_name: "x" }).execute())).toBe(true);
  });
});
