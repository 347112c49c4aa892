import { Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type CompiledQuery, type DatabaseConnection, type Driver } from "kysely";
import { describe, expect, it } from "vitest";
import type { Db } from "../src/db/connect.js";
import type { Database } from "../src/db/schema.js";
import { CompiledOnce } from "../src/db/compiled-once.js";
import { scopedToRequest } from "../src/db/request-scope.js";

// A statement a hot path runs over and over (a password sign-in's two) is built and compiled once per shape, and each
// run fills in its own values: what reaches the database must be what building it afresh would have sent.
const sent: CompiledQuery[] = [];
const connection: DatabaseConnection = {
  async executeQuery(query) {
    sent.push(query);
    return { rows: [] };
  },
  async *streamQuery() {
    throw new Error("not streamed here");
  },
};
const driver: Driver = {
  init: async () => {},
  acquireConnection: async () => connection,
  beginTransaction: async () => {},
  commitTransaction: async () => {},
  rollbackTransaction: async () => {},
  releaseConnection: async () => {},
  destroy: async () => {},
};
const db: Db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => driver,
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});


const renameUsers = (d: Db, v: Record<string, unknown>, count: number) =>
  d
    .updateTable("users")
    .set({ display_name: v.name as string })
    .where("project_id", "=", v.projectId as string)
    .where("id", "in", Array.from({ length: count }, (_, i) => v[`id${i}`] as string));

describe("a statement compiled once", () => {
  it("sends each run's own values, in the text building it afresh gives, and builds once per shape", async () => {
    const statement = new CompiledOnce<Record<string, unknown>, unknown>();
    let builds = 0;
    const run = (d: Db, values: Record<string, unknown>, count: number) =>
      statement.run(d, `${count} ids`, values, (slots) => {
        builds++;
        return renameUsers(d, slots, count);
      });
    const runs = [
      { values: { name: "Ada", projectId: "p1", id0: "u1", id1: "u2" }, count: 2 },
      { values: { name: null, projectId: "p2", id0: "u3", id1: "u4" }, count: 2 },
      { values: { name: "Grace", projectId: "p3", id0: "u5" }, count: 1 },
      { values: { name: "Edsger", projectId: "p4", id0: "u6" }, count: 1 },
    ];
    for (const { values, count } of runs) {
      sent.length = 0;
      await run(db, values, count);
      const fresh = renameUsers(db, values, count).compile();
      expect(sent.map(({ sql, parameters }) => ({ sql, parameters }))).toEqual([{ sql: fresh.sql, parameters: fresh.parameters }]);
    }
    expect(builds).toBe(2);
  });

  it("tells every request's scope that it may have announced a change, not only the first one's", async () => {
    const statement = new CompiledOnce<Record<string, unknown>, unknown>();
    for (let i = 0; i < 3; i++) {
      const { db: scoped, scope } = scopedToRequest(db, {});
      await statement.run(scoped, "one id", { name: "Ada", projectId: "p", id0: `u${i}` }, (slots) => renameUsers(scoped, slots, 1));
      expect(scope.announcedChanges).toBe(true);
    }
    const reads = new CompiledOnce<Record<string, unknown>, unknown>();
    for (let i = 0; i < 2; i++) {
      const { db: scoped, scope } = scopedToRequest(db, {});
      await reads.run(scoped, "read", { id: `u${i}` }, (slots) => scoped.selectFrom("users").select("id").where("id", "=", slots.id as string));
      expect(scope.announcedChanges).toBe(false);
    }
  });
});
