import { describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { customerUser, getItem, inDays, ledgerProject, quantityOf, updateQuantity } from "./support/payments-ledger-fixture.js";
import { as, createTeam, expectKnownError, expectSchemaError, server, useServerForFile } from "./support/users-fixture.js";

useServerForFile();

describe("GET /payments/items/{customer_type}/{customer_id}/{item_id}", () => {
  it("answers the item and its quantity for users, teams and custom customers; a client reads its own and its teams'", async () => {
    const project = await ledgerProject();
    const user = await customerUser(project);
    const team = await createTeam(project, [user.id]);
    // A user holds the plans group's include-by-default "free" offer: 5 credits.
    const read = await getItem(project, "client", "user", user.id, "credits", user.tokens);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body).toEqual({ id: "credits", display_name: "Credits", quantity: 5 });
    expect((await getItem(project, "client", "team", team, "seats", user.tokens)).body).toEqual({ id: "seats", display_name: "Seats", quantity: 0 });
    expect((await getItem(project, "server", "custom", "org:acme", "tokens")).body).toEqual({ id: "tokens", display_name: "Tokens", quantity: 0 });
    // User ids are matched whatever their case.
    expect((await getItem(project, "client", "user", user.id.toUpperCase(), "credits", user.tokens)).body.quantity).toBe(5);
  });

  it("refuses in the reference's order: ITEM_NOT_FOUND, ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH, then USER_NOT_FOUND / TEAM_NOT_FOUND", async () => {
    const project = await ledgerProject();
    const missing = await getItem(project, "server", "team", "not-a-team", "nope");
    expectKnownError(missing, "ITEM_NOT_FOUND", 404);
    expect(missing.body).toEqual({ code: "ITEM_NOT_FOUND", error: 'Item with ID "nope" not found.', details: { item_id: "nope" } });

    const wrongType = await getItem(project, "server", "team", "not-a-team", "credits");
    expectKnownError(wrongType, "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", 400);
    expect(wrongType.body.error).toBe(
      'The team with ID "not-a-team" is not a valid customer for the item with ID "credits". The item is configured to only be available for user customers, but the customer is a team.',
    );
    expect(wrongType.body.details).toEqual({ item_id: "credits", customer_id: "not-a-team", item_customer_type: "user", actual_customer_type: "team" });

    expectKnownError(await getItem(project, "server", "user", crypto.randomUUID(), "credits"), "USER_NOT_FOUND", 404);
    expectKnownError(await getItem(project, "server", "user", "not-a-uuid", "credits"), "USER_NOT_FOUND", 404);
    const team = await getItem(project, "server", "team", "not-a-team", "seats");
    expectKnownError(team, "TEAM_NOT_FOUND", 404);
    expect(team.body.details).toEqual({ team_id: "not-a-team" });
    expectSchemaError(await getItem(project, "server", "company", "x", "credits"), "params.customer_type must be one of the following values: user, team, custom");
  });

  it("lets a client read only its own user and teams it is a member of", async () => {
    const project = await ledgerProject();
    const user = await customerUser(project);
    const other = await customerUser(project);
    const foreignTeam = await createTeam(project, [other.id]);
    for (const [type, id, item] of [["user", other.id, "credits"], ["team", foreignTeam, "seats"], ["custom", "org:acme", "tokens"]] as const) {
      const refused = await getItem(project, "client", type, id, item, user.tokens);
      expect(refused.status, `${type}: ${refused.text}`).toBe(403);
      expect(refused.text).toBe("Clients can only read the items of their own user or of teams they are a member of.");
    }
  });

  it("in 2.8.41 lets a client request without a user read any customer (that SDK's server getItem sends one), in 2.8.108 not", async () => {
    const project = await ledgerProject();
    const user = await customerUser(project);
    expect((await getItem(project, "client", "user", user.id, "credits")).body.quantity).toBe(5);
    const hexclave = Object.fromEntries(Object.entries(project.headers("client")).map(([k, v]) => [k.replace(/^x-stack-/, "x-hexclave-"), v]));
    const newer = await api(server.url, `/payments/items/user/${user.id}/credits`, { headers: hexclave });
    expectKnownError(newer, "USER_AUTHENTICATION_REQUIRED", 401);
  });
});

describe("POST …/update-quantity", () => {
  it("adds and takes quantities, refuses an overdraw with ITEM_QUANTITY_INSUFFICIENT_AMOUNT unless allow_negative=true", async () => {
    const project = await ledgerProject();
    const user = await customerUser(project);
    const granted = await updateQuantity(project, "user", user.id, "credits", { delta: 10, description: "welcome" }, false);
    expect(granted.status, granted.text).toBe(200);
    expect(granted.body).toEqual({ success: true });
    expect(await quantityOf(project, "user", user.id, "credits")).toBe(15);

    const overdraw = await updateQuantity(project, "user", user.id, "credits", { delta: -16 }, false);
    expectKnownError(overdraw, "ITEM_QUANTITY_INSUFFICIENT_AMOUNT", 400);
    expect(overdraw.body.error).toBe(`The item with ID "credits" has an insufficient quantity for the customer with ID "${user.id}". An attempt was made to charge -16 credits.`);
    expect(overdraw.body.details).toEqual({ item_id: "credits", customer_id: user.id, quantity: -16 });
    expect(await quantityOf(project, "user", user.id, "credits")).toBe(15);

    // allow_negative left out means false, as the SDK sends it.
    expectKnownError(await updateQuantity(project, "user", user.id, "credits", { delta: -16 }), "ITEM_QUANTITY_INSUFFICIENT_AMOUNT", 400);
    expect((await updateQuantity(project, "user", user.id, "credits", { delta: -15 })).status).toBe(200);
    expect((await updateQuantity(project, "user", user.id, "credits", { delta: -7 }, true)).status).toBe(200);
    expect(await quantityOf(project, "user", user.id, "credits")).toBe(-7);
  });

  it("counts a grant until its expires_at, then no more", async () => {
    const project = await ledgerProject();
    const user = await customerUser(project);
    expect((await updateQuantity(project, "custom", "org:acme", "tokens", { delta: 20, expires_at: inDays(1).toISOString() })).status).toBe(200);
    expect((await updateQuantity(project, "custom", "org:acme", "tokens", { delta: 3 })).status).toBe(200);
    expect(await quantityOf(project, "custom", "org:acme", "tokens")).toBe(23);
    // The same grant, already expired (written as the route writes it, a day in the past).
    await server.db.updateTable("payment_item_quantity_changes").set({ expires_at: new Date(Date.now() - 1000) })
      .where("project_id", "=", project.projectId).where("quantity", "=", 20).execute();
    expect(await quantityOf(project, "custom", "org:acme", "tokens")).toBe(3);
    expect(await quantityOf(project, "user", user.id, "credits")).toBe(5);
  });

  it("checks the item, its customer type and the customer before the body's effect; schema errors as the pipeline words them", async () => {
    const project = await ledgerProject();
    expectKnownError(await updateQuantity(project, "user", crypto.randomUUID(), "nope", { delta: 1 }), "ITEM_NOT_FOUND", 404);
    expectKnownError(await updateQuantity(project, "custom", "x", "credits", { delta: 1 }), "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", 400);
    expectKnownError(await updateQuantity(project, "user", crypto.randomUUID(), "credits", { delta: 1 }), "USER_NOT_FOUND", 404);
    expectKnownError(await updateQuantity(project, "team", crypto.randomUUID(), "seats", { delta: 1 }), "TEAM_NOT_FOUND", 404);
    expectSchemaError(await updateQuantity(project, "custom", "x", "tokens", { delta: 1.5 }), "body.delta must be an integer");
    expectSchemaError(await updateQuantity(project, "custom", "x", "tokens", {}), "body.delta must be defined");
    expectSchemaError(await updateQuantity(project, "custom", "x", "tokens", { delta: 1, expires_at: "soon" }), "body.expires_at must be a valid date");
    expectSchemaError(await updateQuantity(project, "custom", "x", "tokens", { delta: 1 }, "maybe" as unknown as boolean), "query.allow_negative must be one of the following values: true, false");
    const user = await customerUser(project);
    const client = await as(project, "client", `/payments/items/user/${user.id}/credits/update-quantity?allow_negative=false`, { method: "POST", body: { delta: 1 }, tokens: user.tokens });
    expectKnownError(client, "INSUFFICIENT_ACCESS_TYPE", 401);
  });

  it("keeps each project's payments apart", async () => {
    const first = await ledgerProject();
    const second = await ledgerProject();
    await updateQuantity(first, "custom", "shared-id", "tokens", { delta: 9 });
    expect(await quantityOf(first, "custom", "shared-id", "tokens")).toBe(9);
    expect(await quantityOf(second, "custom", "shared-id", "tokens")).toBe(0);
    const user = await customerUser(first);
    // A user of the first project is no customer of the second.
    expectKnownError(await getItem(second, "server", "user", user.id, "credits"), "USER_NOT_FOUND", 404);
  });
});

describe("parallel quantity changes", () => {
  it("50 parallel decreases of 3 on a balance of 100 never overdraw: exactly 33 succeed and 1 is left", async () => {
    const project = await ledgerProject();
    const customer = `hot-${crypto.randomUUID()}`;
    expect((await updateQuantity(project, "custom", customer, "tokens", { delta: 100 })).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 50 }, () => updateQuantity(project, "custom", customer, "tokens", { delta: -3 }, false)));
    const statuses = results.map((r) => (r.status === 200 ? "ok" : r.body.code));
    expect(statuses.filter((s) => s === "ok")).toHaveLength(33);
    expect(statuses.filter((s) => s === "ITEM_QUANTITY_INSUFFICIENT_AMOUNT")).toHaveLength(17);
    expect(await quantityOf(project, "custom", customer, "tokens")).toBe(1);
    const rows = await server.db.selectFrom("payment_item_quantity_changes").select("quantity")
      .where("project_id", "=", project.projectId).where("customer_id", "=", customer).execute();
    expect(rows).toHaveLength(34);
  });
});
