import { describe, expect, it } from "vitest";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { server, as, createUser, createTeam, expectSchemaError, useServerForFile } from "./support/users-fixture.js";

useServerForFile();

describe("listing users (GET /users)", () => {
  /** Users in sign-up order; three share one sign-up instant, so order ties are broken by id. */
  async function seed(project: TestProject): Promise<string[]> {
    for (let i = 0; i < 4; i++) await createUser(project, { display_name: `User ${i}` });
    const instant = new Date("2030-01-01T00:00:00.000Z");
    await server.db
      .insertInto("users")
      .values([0, 1, 2].map(() => ({ project_id: project.projectId, created_at: instant, last_active_at: instant })))
      .execute();
    const all = await as(project, "server", "/users");
    expect(all.status).toBe(200);
    expect(all.body.is_paginated).toBe(true);
    expect(all.body.pagination).toEqual({ next_cursor: null });
    return all.body.items.map((u: { id: string }) => u.id);
  }

  async function walk(project: TestProject, limit: number, desc: boolean): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const params = new URLSearchParams({ limit: String(limit), order_by: "signed_up_at", desc: String(desc), ...(cursor ? { cursor } : {}) });
      const response = await as(project, "server", `/users?${params}`);
      expect(response.status).toBe(200);
      expect(response.body.items.length).toBeLessThanOrEqual(limit);
      pages.push(response.body.items.map((u: { id: string }) => u.id));
      cursor = response.body.pagination.next_cursor;
      expect(pages.length).toBeLessThan(20);
    } while (cursor);
    return pages;
  }

  it("walks every user exactly once with cursor and limit, in both orders", async () => {
    const project = await createTestProject(server);
    const ascending = await seed(project);
    expect(ascending).toHaveLength(7);
    const times = (await as(project, "server", "/users")).body.items.map((u: { signed_up_at_millis: number }) => u.signed_up_at_millis);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    for (const limit of [1, 2, 3, 7, 50]) {
      const up = await walk(project, limit, false);
      expect(up.flat()).toEqual(ascending);
      expect(up).toHaveLength(Math.max(1, Math.ceil(7 / limit)));
      const down = await walk(project, limit, true);
      expect(down.flat()).toEqual([...ascending].reverse());
    }
  });

  it("gives an empty last page for an unknown cursor", async () => {
    const project = await createTestProject(server);
    await createUser(project);
    const response = await as(project, "server", `/users?cursor=${crypto.randomUUID()}&limit=5`);
    expect(response.body).toEqual({ items: [], is_paginated: true, pagination: { next_cursor: null } });
  });

  it("searches display names, emails and ids, case-insensitively", async () => {
    const project = await createTestProject(server);
    const ada = await createUser(project, { display_name: "Ada Lovelace", primary_email: "ada@analytical.example" });
    const grace = await createUser(project, { display_name: "Grace Hopper", primary_email: "grace@cobol.example" });
    const percent = await createUser(project, { display_name: "100% real_name" });
    const search = async (query: string) =>
      (await as(project, "server", `/users?query=${encodeURIComponent(query)}`)).body.items.map((u: { id: string }) => u.id).sort();

    expect(await search("LOVELACE")).toEqual([ada.id]);
    expect(await search("Cobol.EX")).toEqual([grace.id]);
    // Found by both her name and her email, listed once.
    expect(await search("GRACE")).toEqual([grace.id]);
    expect(await search("a")).toEqual([ada.id, grace.id, percent.id].sort());
    expect(await search(grace.id.slice(4, 20).toUpperCase())).toEqual([grace.id]);
    // LIKE wildcards are ordinary characters.
    expect(await search("0%")).toEqual([percent.id]);
    expect(await search("l_name")).toEqual([percent.id]);
    expect(await search("%")).toEqual([percent.id]);
    expect(await search("nobody")).toEqual([]);
    expect(await search("")).toHaveLength(3);
    expectSchemaError(await as(project, "server", "/users?query=%00"), "query.query must not contain null characters");
  });

  it("hides anonymous users unless include_anonymous is true", async () => {
    const project = await createTestProject(server);
    const regular = await createUser(project);
    const anonymous = await createUser(project, { is_anonymous: true });
    const ids = async (query: string) => (await as(project, "server", `/users${query}`)).body.items.map((u: { id: string }) => u.id);
    expect(await ids("")).toEqual([regular.id]);
    expect(await ids("?include_anonymous=false")).toEqual([regular.id]);
    expect(await ids("?include_anonymous=true")).toEqual([regular.id, anonymous.id]);
  });

  it("lists the members of a team", async () => {
    const project = await createTestProject(server);
    const [a, b, c] = [await createUser(project), await createUser(project), await createUser(project)];
    const team = await createTeam(project, [a.id, c.id]);
    const listed = await as(project, "server", `/users?team_id=${team}`);
    expect(listed.body.items.map((u: { id: string }) => u.id)).toEqual([a.id, c.id]);
    expect((await as(project, "server", `/users?team_id=${crypto.randomUUID()}`)).body.items).toEqual([]);
    expect(b.id).toBeDefined();
  });

  it("rejects malformed query parameters", async () => {
    const project = await createTestProject(server);
    const list = (query: string) => as(project, "server", `/users?${query}`);
    expectSchemaError(await list("limit=0"), "query.limit must be greater than or equal to 1");
    expectSchemaError(await list("limit=1.5"), "query.limit must be an integer");
    expectSchemaError(await list("limit=abc"), "query.limit must be a `number` type");
    expectSchemaError(await list("cursor=nope"), "query.cursor must be a valid UUID");
    expectSchemaError(await list("team_id=nope"), "query.team_id must be a valid UUID");
    expectSchemaError(await list("order_by=display_name"), "query.order_by must be one of the following values: signed_up_at");
    expectSchemaError(await list("desc=yes"), "query.desc must be one of the following values: true, false");
    expectSchemaError(await list("include_anonymous=1"), "query.include_anonymous must be one of the following values: true, false");
  });
});
