import { describe, expect, it } from "vitest";
import { createTestProject } from "./support/test-server.js";
import { as, createUser, email, server, signIn, useServerForFile } from "./support/users-fixture.js";

useServerForFile();

const TRANSACTIONAL = "7bb82d33-2f54-4a3d-9d23-82739e0d66ef";
const MARKETING = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";

const defaults = [
  { notification_category_id: TRANSACTIONAL, notification_category_name: "Transactional", enabled: true, can_disable: false },
  { notification_category_id: MARKETING, notification_category_name: "Marketing", enabled: true, can_disable: true },
];

async function signedInUser() {
  const project = await createTestProject(server);
  const user = await createUser(project, { primary_email: email() });
  const tokens = await signIn(project, user.id);
  return { project, user, tokens };
}

describe("listing notification preferences", () => {
  it("lists the protocol's two categories with their defaults for the signed-in user", async () => {
    const { project, tokens } = await signedInUser();
    const response = await as(project, "client", "/emails/notification-preference/me", { tokens });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ items: defaults, is_paginated: false });
  });

  it("lets a server read any user's preferences by id, and a client its own id", async () => {
    const { project, user, tokens } = await signedInUser();
    const byServer = await as(project, "server", `/emails/notification-preference/${user.id}`);
    expect(byServer.status).toBe(200);
    expect(byServer.body.items).toEqual(defaults);
    const ownId = await as(project, "client", `/emails/notification-preference/${user.id.toUpperCase()}`, { tokens });
    expect(ownId.status).toBe(200);
    expect(ownId.body.items).toEqual(defaults);
  });

  it("requires a signed-in user for me", async () => {
    const { project } = await signedInUser();
    const response = await as(project, "client", "/emails/notification-preference/me");
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("USER_AUTHENTICATION_REQUIRED");
  });

  it("refuses a client reading another user's preferences", async () => {
    const { project, tokens } = await signedInUser();
    const other = await createUser(project, { primary_email: email() });
    const response = await as(project, "client", `/emails/notification-preference/${other.id}`, { tokens });
    expect(response.status).toBe(403);
    expect(response.text).toBe("You can only view your own notification preferences");
  });

  it("answers USER_ID_DOES_NOT_EXIST for a user of another project or nobody", async () => {
    const { user } = await signedInUser();
    const otherProject = await createTestProject(server);
    for (const id of [user.id, crypto.randomUUID()]) {
      const response = await as(otherProject, "server", `/emails/notification-preference/${id}`);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: "USER_ID_DOES_NOT_EXIST", details: { user_id: id } });
    }
  });

  it("refuses a user id that is neither a UUID nor me", async () => {
    const { project } = await signedInUser();
    const response = await as(project, "server", "/emails/notification-preference/someone");
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("SCHEMA_ERROR");
  });
});

describe("changing notification preferences", () => {
  it("turns marketing off and on again for the signed-in user, and keeps the choice", async () => {
    const { project, tokens } = await signedInUser();
    const off = await as(project, "client", `/emails/notification-preference/me/${MARKETING}`, { method: "PATCH", body: { enabled: false }, tokens });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ notification_category_id: MARKETING, notification_category_name: "Marketing", enabled: false, can_disable: true });
    const listed = await as(project, "client", "/emails/notification-preference/me", { tokens });
    expect(listed.body.items).toEqual([defaults[0], { ...defaults[1], enabled: false }]);

    const on = await as(project, "client", `/emails/notification-preference/me/${MARKETING}`, { method: "PATCH", body: { enabled: true }, tokens });
    expect(on.status).toBe(200);
    expect(on.body.enabled).toBe(true);
    expect((await as(project, "client", "/emails/notification-preference/me", { tokens })).body.items).toEqual(defaults);
  });

  it("lets a server change a user's preference by id, for that user only", async () => {
    const { project, user, tokens } = await signedInUser();
    const neighbour = await createUser(project, { primary_email: email() });
    const response = await as(project, "server", `/emails/notification-preference/${user.id}/${MARKETING}`, { method: "PATCH", body: { enabled: false } });
    expect(response.status).toBe(200);
    expect((await as(project, "client", "/emails/notification-preference/me", { tokens })).body.items[1].enabled).toBe(false);
    expect((await as(project, "server", `/emails/notification-preference/${neighbour.id}`)).body.items).toEqual(defaults);
  });

  it("refuses to disable transactional mail, and leaves it enabled", async () => {
    const { project, user, tokens } = await signedInUser();
    for (const [access, path] of [["client", "me"], ["server", user.id]] as const) {
      const response = await as(project, access, `/emails/notification-preference/${path}/${TRANSACTIONAL}`, { method: "PATCH", body: { enabled: false }, tokens });
      expect(response.status).toBe(400);
      expect(response.text).toBe("The notification category Transactional cannot be disabled.");
    }
    expect((await as(project, "client", "/emails/notification-preference/me", { tokens })).body.items).toEqual(defaults);
    const enable = await as(project, "client", `/emails/notification-preference/me/${TRANSACTIONAL}`, { method: "PATCH", body: { enabled: true }, tokens });
    expect(enable.status).toBe(200);
    expect(enable.body).toEqual(defaults[0]);
  });

  it("answers 404 for an unknown category and a schema error for one that is not a UUID", async () => {
    const { project, tokens } = await signedInUser();
    const unknown = await as(project, "client", `/emails/notification-preference/me/${crypto.randomUUID()}`, { method: "PATCH", body: { enabled: false }, tokens });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe("Notification category not found");
    const malformed = await as(project, "client", "/emails/notification-preference/me/marketing", { method: "PATCH", body: { enabled: false }, tokens });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe("SCHEMA_ERROR");
    expect(malformed.body.error).toContain("params.notification_category_id must be a valid UUID");
  });

  it("answers CANNOT_GET_OWN_USER_WITHOUT_USER for me without a user, before looking the category up", async () => {
    const { project } = await signedInUser();
    for (const [access, category] of [["client", MARKETING], ["server", MARKETING], ["client", crypto.randomUUID()], ["server", crypto.randomUUID()]] as const) {
      const response = await as(project, access, `/emails/notification-preference/me/${category}`, { method: "PATCH", body: { enabled: false } });
      expect(response.status).toBe(400);
      expect(response.headers.get("x-stack-known-error")).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
      expect(response.body).toEqual({ code: "CANNOT_GET_OWN_USER_WITHOUT_USER", error: "You have specified 'me' as a userId, but did not provide authentication for a user." });
    }
  });

  it("refuses a client changing another user's preference, which stays as it was", async () => {
    const { project, tokens } = await signedInUser();
    const other = await createUser(project, { primary_email: email() });
    const response = await as(project, "client", `/emails/notification-preference/${other.id}/${MARKETING}`, { method: "PATCH", body: { enabled: false }, tokens });
    expect(response.status).toBe(403);
    expect(response.text).toBe("You can only manage your own notification preferences");
    expect((await as(project, "server", `/emails/notification-preference/${other.id}`)).body.items).toEqual(defaults);
  });

  it("requires enabled to be a boolean, or a value the protocol casts to one", async () => {
    const { project, tokens } = await signedInUser();
    for (const body of [{}, { enabled: "no" }, { enabled: false, extra: 1 }]) {
      const response = await as(project, "client", `/emails/notification-preference/me/${MARKETING}`, { method: "PATCH", body, tokens });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("SCHEMA_ERROR");
    }
    // "false" is cast to false, as the protocol's validator casts it.
    const cast = await as(project, "client", `/emails/notification-preference/me/${MARKETING}`, { method: "PATCH", body: { enabled: "false" }, tokens });
    expect(cast.status, cast.text).toBe(200);
    expect(cast.body.enabled).toBe(false);
  });

  it("answers USER_ID_DOES_NOT_EXIST when a server changes a preference of nobody", async () => {
    const { project } = await signedInUser();
    const id = crypto.randomUUID();
    const response = await as(project, "server", `/emails/notification-preference/${id}/${MARKETING}`, { method: "PATCH", body: { enabled: false } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: "USER_ID_DOES_NOT_EXIST", details: { user_id: id } });
  });
});
