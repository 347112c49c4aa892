import { describe, expect, it } from "vitest";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { as, email, expectKnownError, expectSchemaError, server, useServerForFile, type Tokens } from "./support/users-fixture.js";

useServerForFile();

const CHANNEL_KEYS = ["id", "is_primary", "is_verified", "type", "used_for_auth", "user_id", "value"];

/** A user signed up through the API with email and password, and the tokens of its session. */
async function signUp(project: TestProject, address = email()): Promise<{ userId: string; email: string; tokens: Tokens }> {
  const response = await as(project, "client", "/auth/password/sign-up", { body: { email: address, password: "correct horse" } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { userId: response.body.user_id, email: address, tokens: response.body };
}

const listMine = (project: TestProject, tokens: Tokens) => as(project, "client", "/contact-channels?user_id=me", { tokens });
const addMine = (project: TestProject, tokens: Tokens, body: Record<string, unknown>) =>
  as(project, "client", "/contact-channels", { body: { user_id: "me", type: "email", used_for_auth: false, ...body }, tokens });
const patchMine = (project: TestProject, tokens: Tokens, id: string, body: Record<string, unknown>) =>
  as(project, "client", `/contact-channels/me/${id}`, { method: "PATCH", body, tokens });
const me = async (project: TestProject, tokens: Tokens) => (await as(project, "client", "/users/me", { tokens })).body;

describe("contact channels of the signed-in user", () => {
  it("lists the sign-up email as the primary, sign-in channel", async () => {
    const project = await createTestProject(server);
    const user = await signUp(project);
    const list = await listMine(project, user.tokens);
    expect(list.status).toBe(200);
    expect(list.body.is_paginated).toBe(false);
    expect(list.body.items).toHaveLength(1);
    expect(Object.keys(list.body.items[0]).sort()).toEqual(CHANNEL_KEYS);
    expect(list.body.items[0]).toMatchObject({ user_id: user.userId, type: "email", value: user.email, is_primary: true, is_verified: false, used_for_auth: true });
  });

  it("adds, reads, updates and deletes a channel", async () => {
    const project = await createTestProject(server);
    const user = await signUp(project);
    const address = email();
    const created = await addMine(project, user.tokens, { value: address });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), user_id: user.userId, type: "email", value: address, is_primary: false, is_verified: false, used_for_auth: false });

    const read = await as(project, "client", `/contact-channels/me/${created.body.id}`, { tokens: user.tokens });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const byOwnId = await as(project, "client", `/contact-channels/${user.userId}/${created.body.id}`, { tokens: user.tokens });
    expect(byOwnId.body).toEqual(created.body);

    const renamed = email();
    const updated = await patchMine(project, user.tokens, created.body.id, { value: renamed });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ ...created.body, value: renamed });

    const deleted = await as(project, "client", `/contact-channels/me/${created.body.id}`, { method: "DELETE", tokens: user.tokens });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    expect((await listMine(project, user.tokens)).body.items.map((c: { value: string }) => c.value)).toEqual([user.email]);
    const gone = await as(project, "client", `/contact-channels/me/${created.body.id}`, { tokens: user.tokens });
    expect(gone.status).toBe(404);
  });

  it("makes a new primary and demotes the old one; the user's primary email follows", async () => {
    const project = await createTestProject(server);
    const user = await signUp(project);
    const second = email();
    const created = await addMine(project, user.tokens, { value: second, is_primary: true });
    expect(created.body.is_primary).toBe(true);
    const channels = (await listMine(project, user.tokens)).body.items;
    expect(channels.filter((c: { is_primary: boolean }) => c.is_primary).map((c: { value: string }) => c.value)).toEqual([second]);
    expect((await me(project, user.tokens)).primary_email).toBe(second);

    const original = channels.find((c: { value: string }) => c.value === user.email);
    expect((await patchMine(project, user.tokens, original.id, { is_primary: true })).body.is_primary).toBe(true);
    expect((await me(project, user.tokens)).primary_email).toBe(user.email);
    const after = (await listMine(project, user.tokens)).body.items;
    expect(after.filter((c: { is_primary: boolean }) => c.is_primary).map((c: { value: string }) => c.value)).toEqual([user.email]);

    // Without a primary channel the user has no primary email.
    await patchMine(project, user.tokens, original.id, { is_primary: false });
    expect((await me(project, user.tokens)).primary_email).toBeNull();
  });

  it("keeps exactly one primary when several channels race to become it", async () => {
    const project = await createTestProject(server);
    const user = await signUp(project);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await addMine(project, user.tokens, { value: email() })).body.id);
    const results = await Promise.all(ids.map((id) => patchMine(project, user.tokens, id, { is_primary: true })));
    expect(results.map((r) => r.status)).toEqual(ids.map(() => 200));
    const primaries = (await listMine(project, user.tokens)).body.items.filter((c: { is_primary: boolean }) => c.is_primary);
    expect(primaries).toHaveLength(1);
    expect((await me(project, user.tokens)).primary_email).toBe(primaries[0].value);
  });

  it("un-verifies a channel whose value changes, unless a server says otherwise", async () => {
    const project = await createTestProject(server);
    const user = await signUp(project);
    const created = await as(project, "server", "/contact-channels", { body: { user_id: user.userId, type: "email", value: email(), used_for_auth: false, is_verified: true } });
    expect(created.body.is_verified).toBe(true);
    const id = created.body.id;
    expect((await patchMine(project, user.tokens, id, { is_primary: true })).body.is_verified).toBe(true);
    expect((await patchMine(project, user.tokens, id, { value: created.body.value })).body.is_verified).toBe(true);
    expect((await patchMine(project, user.tokens, id, { value: email() })).body.is_verified).toBe(false);
    expect((await me(project, user.tokens)).primary_email_verified).toBe(false);
    const server_ = await as(project, "server", `/contact-channels/${user.userId}/${id}`, { method: "PATCH", body: { value: email(), is_verified: true } });
    expect(server_.body.is_verified).toBe(true);
    expect((await me(project, user.tokens)).primary_email_verified).toBe(true);
  });

  it("refuses a second channel with the same value for one user with a plain 400", async () => {
    const project = await createTestProject(server);
    const user = await signUp(project);
    const address = email();
    expect((await addMine(project, user.tokens, { value: address })).status).toBe(201);
    const again = await addMine(project, user.tokens, { value: address });
    expect(again.status).toBe(400);
    expect(again.text).toBe("Contact channel already exists");
  });
});

describe("used for authentication", () => {
  it("refuses a value another account signs in with, on create and on update", async () => {
    const project = await createTestProject(server);
    const alice = await signUp(project);
    const bob = await signUp(project);

    const taken = await addMine(project, bob.tokens, { value: alice.email, used_for_auth: true });
    expectKnownError(taken, "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", 409);
    expect(taken.body.error).toBe(`This email "(${alice.email})" is already used for authentication by another account.`);
    expect(taken.body.details).toEqual({ type: "email", contact_channel_value: alice.email, would_work_if_email_was_verified: false });

    // A sign-in channel cannot take that value.
    const bobsOwn = (await listMine(project, bob.tokens)).body.items.find((c: { value: string }) => c.value === bob.email);
    expectKnownError(await patchMine(project, bob.tokens, bobsOwn.id, { value: alice.email }), "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", 409);
    expect((await me(project, bob.tokens)).primary_email).toBe(bob.email);
    // The same address only as a contact (not for sign-in) is fine…
    const contactOnly = await addMine(project, bob.tokens, { value: alice.email });
    expect(contactOnly.status).toBe(201);
    // …but it cannot become a sign-in channel.
    expectKnownError(await patchMine(project, bob.tokens, contactOnly.body.id, { used_for_auth: true }), "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", 409);
    // Once Bob has the address, giving it to another of his channels is first of all a duplicate.
    const again = await patchMine(project, bob.tokens, bobsOwn.id, { value: alice.email });
    expect(again.status).toBe(400);
    expect(again.text).toBe("Contact channel already exists");

    // Once Alice's channel no longer signs in, Bob may use the address to sign in.
    const alicesOwn = (await listMine(project, alice.tokens)).body.items[0];
    expect((await patchMine(project, alice.tokens, alicesOwn.id, { used_for_auth: false })).status).toBe(200);
    expect((await patchMine(project, bob.tokens, contactOnly.body.id, { used_for_auth: true })).body.used_for_auth).toBe(true);
  });

  it("lets exactly one of many users racing for the same sign-in address have it", async () => {
    const project = await createTestProject(server);
    const users = await Promise.all(Array.from({ length: 8 }, () => signUp(project)));
    const address = email();
    const results = await Promise.all(users.map((user) => addMine(project, user.tokens, { value: address, used_for_auth: true })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const result of results.filter((r) => r.status === 409)) expect(result.body.code).toBe("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE");
  });

  it("lets the user sign in with a channel once it is used for authentication", async () => {
    const project = await createTestProject(server);
    const user = await signUp(project);
    const address = email();
    const signIn = () => as(project, "client", "/auth/password/sign-in", { body: { email: address, password: "correct horse" } });
    const channel = await addMine(project, user.tokens, { value: address });
    expectKnownError(await signIn(), "EMAIL_PASSWORD_MISMATCH", 400);
    await patchMine(project, user.tokens, channel.body.id, { used_for_auth: true });
    const signedIn = await signIn();
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user_id).toBe(user.userId);
  });
});

describe("who may touch which channels", () => {
  it("keeps a client to its own user's channels", async () => {
    const project = await createTestProject(server);
    const alice = await signUp(project);
    const bob = await signUp(project);
    const bobsChannel = (await listMine(project, bob.tokens)).body.items[0];
    const asAlice = (path: string, method = "GET", body?: unknown) => as(project, "client", path, { method, body, tokens: alice.tokens });

    const forbidden = async (response: Promise<{ status: number; text: string }>, text: string) => {
      const r = await response;
      expect(r.status).toBe(403);
      expect(r.text).toBe(text);
    };
    await forbidden(asAlice(`/contact-channels?user_id=${bob.userId}`), "Client can only list contact channels for their own user.");
    await forbidden(asAlice("/contact-channels"), "Client can only list contact channels for their own user.");
    await forbidden(asAlice("/contact-channels", "POST", { user_id: bob.userId, type: "email", value: email(), used_for_auth: false }), "Client can only create contact channels for their own user.");
    await forbidden(asAlice(`/contact-channels/${bob.userId}/${bobsChannel.id}`), "Client can only read contact channels for their own user.");
    await forbidden(asAlice(`/contact-channels/${bob.userId}/${bobsChannel.id}`, "PATCH", { is_primary: false }), "Client can only update contact channels for their own user.");
    await forbidden(asAlice(`/contact-channels/${bob.userId}/${bobsChannel.id}`, "DELETE"), "Client can only delete contact channels for their own user.");

    // Naming Bob's channel as her own finds nothing.
    expect((await asAlice(`/contact-channels/me/${bobsChannel.id}`)).status).toBe(404);
    expect((await asAlice(`/contact-channels/me/${bobsChannel.id}`, "PATCH", { is_primary: false })).status).toBe(400);
    expect((await asAlice(`/contact-channels/me/${bobsChannel.id}`, "DELETE")).status).toBe(400);
    expect((await listMine(project, bob.tokens)).body.items).toEqual([bobsChannel]);
  });

  it("needs a signed-in user for a client", async () => {
    const project = await createTestProject(server);
    const user = await signUp(project);
    expectKnownError(await as(project, "client", "/contact-channels?user_id=me"), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await as(project, "client", `/contact-channels?user_id=${user.userId}`), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(
      await as(project, "client", "/contact-channels", { body: { user_id: "me", type: "email", value: email(), used_for_auth: false } }),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      400,
    );
    expectKnownError(await as(project, "server", "/contact-channels?user_id=me"), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });

  it("lets servers and admins work on any user's channels, and says when the user or channel is unknown", async () => {
    const project = await createTestProject(server);
    const alice = await signUp(project);
    const bob = await signUp(project);
    const created = await as(project, "server", "/contact-channels", { body: { user_id: alice.userId, type: "email", value: email(), used_for_auth: false, is_primary: true } });
    expect(created.status).toBe(201);
    expect((await me(project, alice.tokens)).primary_email).toBe(created.body.value);
    const admin = await as(project, "admin", `/contact-channels/${alice.userId}/${created.body.id}`, { method: "PATCH", body: { is_verified: true } });
    expect(admin.body.is_verified).toBe(true);

    const listed = await as(project, "server", `/contact-channels?user_id=${alice.userId}`);
    expect(listed.body.items.map((c: { value: string }) => c.value).sort()).toEqual([alice.email, created.body.value].sort());
    const filtered = await as(project, "server", `/contact-channels?user_id=${alice.userId}&contact_channel_id=${created.body.id}`);
    expect(filtered.body.items).toEqual([admin.body]);
    // Without a user, a server lists the project's channels: these two users', none of another project's.
    await signUp(await createTestProject(server));
    const all = await as(project, "server", "/contact-channels");
    expect(new Set(all.body.items.map((c: { user_id: string }) => c.user_id))).toEqual(new Set([alice.userId, bob.userId]));

    const unknownUser = crypto.randomUUID();
    const noUser = await as(project, "server", "/contact-channels", { body: { user_id: unknownUser, type: "email", value: email(), used_for_auth: false } });
    expectKnownError(noUser, "USER_ID_DOES_NOT_EXIST", 400);
    expect(noUser.body.details).toEqual({ user_id: unknownUser });
    // A user of another project is unknown here.
    const stranger = await signUp(await createTestProject(server));
    expectKnownError(
      await as(project, "server", "/contact-channels", { body: { user_id: stranger.userId, type: "email", value: email(), used_for_auth: false } }),
      "USER_ID_DOES_NOT_EXIST",
      400,
    );
    // Alice's channel under Bob's id does not exist.
    const wrongUser = `/contact-channels/${bob.userId}/${created.body.id}`;
    expect((await as(project, "server", wrongUser)).status).toBe(404);
    expect((await as(project, "server", wrongUser, { method: "PATCH", body: { is_primary: false } })).status).toBe(400);
    expect((await as(project, "server", wrongUser, { method: "DELETE" })).status).toBe(400);
    expect((await as(project, "server", `/contact-channels/${alice.userId}/${created.body.id}`)).body).toEqual(admin.body);
  });
});

describe("request validation", () => {
  it("rejects what the protocol's schemas reject", async () => {
    const project = await createTestProject(server);
    const user = await signUp(project);
    const channel = (await listMine(project, user.tokens)).body.items[0];

    expectSchemaError(await addMine(project, user.tokens, { type: "phone", value: "+15555550100" }), "body.type must be one of the following values: email");
    expectSchemaError(await addMine(project, user.tokens, { value: "not an email" }), "body.value must be a valid email");
    expectSchemaError(await addMine(project, user.tokens, { value: email(), used_for_auth: undefined }), "body.used_for_auth must be defined");
    expectSchemaError(await addMine(project, user.tokens, { value: email(), user_id: "someone" }), "body.user_id must be a valid UUID");
    expectSchemaError(await addMine(project, user.tokens, { value: email(), used_for_auth: "yes" }), "body.used_for_auth must be a `boolean` type");
    expectSchemaError(await addMine(project, user.tokens, { value: email(), is_verified: true }), "body contains unknown properties: is_verified");
    expectSchemaError(await patchMine(project, user.tokens, channel.id, { is_verified: true }), "body contains unknown properties: is_verified");
    expectSchemaError(await patchMine(project, user.tokens, channel.id, { value: "nope" }), "body.value must be a valid email");
    expectSchemaError(await as(project, "server", `/contact-channels/${user.userId}/${channel.id}`, { method: "PATCH", body: { colour: "red" } }), "body contains unknown properties: colour");
    expectSchemaError(await as(project, "client", "/contact-channels/me/not-a-uuid", { tokens: user.tokens }), "params.contact_channel_id must be a valid UUID");
    expectSchemaError(await as(project, "server", "/contact-channels?user_id=nobody"), "query.user_id must be a valid UUID");
    expectSchemaError(await as(project, "server", `/contact-channels/nobody/${channel.id}`), "params.user_id must be a valid UUID");
    expect((await listMine(project, user.tokens)).body.items).toEqual([channel]);
  });

  it("needs an access type", async () => {
    const response = await as(await createTestProject(server), "client", "/contact-channels?user_id=me");
    expect(response.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
    const none = await fetch(`${server.url}/api/v1/contact-channels?user_id=me`);
    expect(none.status).toBe(400);
    expect((await none.json()).code).toBe("ACCESS_TYPE_REQUIRED");
  });
});
