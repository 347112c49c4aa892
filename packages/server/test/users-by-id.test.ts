import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { sessionOfRefreshToken } from "../src/services/sessions.js";
import { createTestProject } from "./support/test-server.js";
import { api } from "./support/api.js";
import { server, as, createUser, signIn, createTeam, email, expectSchemaError, expectKnownError, useServerForFile } from "./support/users-fixture.js";

useServerForFile();

describe("one user by id (/users/{id})", () => {
  it("reads a user by id in any letter case, and `me` only with a signed-in user", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project, { display_name: "Someone" });
    expect((await as(project, "server", `/users/${user.id.toUpperCase()}`)).body.id).toBe(user.id);
    expect((await as(project, "admin", `/users/${user.id}`)).body.display_name).toBe("Someone");
    expectKnownError(await as(project, "server", "/users/me"), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    const tokens = await signIn(project, user.id);
    expect((await as(project, "server", "/users/me", { tokens })).body.id).toBe(user.id);
  });

  it("answers USER_NOT_FOUND for an unknown id, and a SCHEMA_ERROR for a malformed one", async () => {
    const project = await createTestProject(server);
    const unknown = crypto.randomUUID();
    expectKnownError(await as(project, "server", `/users/${unknown}`), "USER_NOT_FOUND", 404);
    expectKnownError(await as(project, "server", `/users/${unknown}`, { method: "PATCH", body: { display_name: "x" } }), "USER_NOT_FOUND", 404);
    expectKnownError(await as(project, "server", `/users/${unknown}`, { method: "DELETE", body: {} }), "USER_NOT_FOUND", 404);
    for (const method of ["GET", "PATCH", "DELETE"]) {
      expectSchemaError(await as(project, "server", "/users/not-a-uuid", { method, body: method === "GET" ? undefined : {} }), "params.user_id must be a valid UUID");
    }
  });

  it("never shows or changes a user of another project", async () => {
    const mine = await createTestProject(server);
    const theirs = await createTestProject(server);
    const user = await createUser(theirs, { display_name: "Theirs" });
    expectKnownError(await as(mine, "server", `/users/${user.id}`), "USER_NOT_FOUND", 404);
    expectKnownError(await as(mine, "server", `/users/${user.id}`, { method: "PATCH", body: { display_name: "Mine" } }), "USER_NOT_FOUND", 404);
    expectKnownError(await as(mine, "server", `/users/${user.id}`, { method: "DELETE", body: {} }), "USER_NOT_FOUND", 404);
    expect((await as(theirs, "server", `/users/${user.id}`)).body.display_name).toBe("Theirs");
    expect((await as(mine, "server", "/users")).body.items).toEqual([]);
  });

  it("updates server-only fields and leaves omitted ones alone", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project, { display_name: "Kept", client_metadata: { kept: true } });
    const patch = (body: unknown) => as(project, "server", `/users/${user.id}`, { method: "PATCH", body });
    const response = await patch({ client_read_only_metadata: { plan: "pro" }, server_metadata: { stripe: "cus_1" }, otp_auth_enabled: true, passkey_auth_enabled: true });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ display_name: "Kept", client_metadata: { kept: true }, client_read_only_metadata: { plan: "pro" }, server_metadata: { stripe: "cus_1" }, otp_auth_enabled: true, passkey_auth_enabled: true });
    expect((await patch({ server_metadata: null })).body).toMatchObject({ server_metadata: null, client_read_only_metadata: { plan: "pro" } });
    expect((await patch({})).body.display_name).toBe("Kept");
  });

  it("sets, changes and removes the primary email", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project);
    const patch = (body: unknown) => as(project, "server", `/users/${user.id}`, { method: "PATCH", body });
    const first = email();
    expect((await patch({ primary_email: first, primary_email_verified: true, primary_email_auth_enabled: true })).body).toMatchObject({
      primary_email: first,
      primary_email_verified: true,
      primary_email_auth_enabled: true,
    });
    // A changed address replaces the old one in place: it stays verified, and keeps signing in.
    const second = email();
    expect((await patch({ primary_email: second })).body).toMatchObject({ primary_email: second, primary_email_verified: true, primary_email_auth_enabled: true });
    expect((await patch({ primary_email_verified: false })).body.primary_email_verified).toBe(false);
    expect((await patch({ primary_email_verified: true })).body.primary_email_verified).toBe(true);
    expect((await patch({ primary_email_auth_enabled: false })).body).toMatchObject({ primary_email_auth_enabled: false, auth_with_email: false });
    expect((await patch({ primary_email: null })).body).toMatchObject({ primary_email: null, primary_email_verified: false, primary_email_auth_enabled: false });
    const channels = await server.db.selectFrom("contact_channels").selectAll().where("user_id", "=", user.id).execute();
    expect(channels).toEqual([]);

    const refused = await patch({ primary_email_auth_enabled: true });
    expect(refused.status).toBe(400);
    expect(refused.text).toBe("primary_email_auth_enabled cannot be true without primary_email");
    expect((await patch({ primary_email_verified: true })).text).toBe("primary_email_verified cannot be true without primary_email");
    expectSchemaError(await patch({ primary_email: "not an email" }), "body.primary_email must be a valid email");
  });

  it("refuses a primary email another account signs in with, on update too", async () => {
    const project = await createTestProject(server);
    const taken = email();
    await createUser(project, { primary_email: taken, primary_email_auth_enabled: true });
    const user = await createUser(project, { primary_email: email(), primary_email_auth_enabled: true });
    const clash = await as(project, "server", `/users/${user.id}`, { method: "PATCH", body: { primary_email: taken } });
    expectKnownError(clash, "USER_EMAIL_ALREADY_EXISTS", 409);
    expect(clash.body.details.email).toBe(taken);
    // Nothing changed.
    expect((await as(project, "server", `/users/${user.id}`)).body.primary_email).not.toBe(taken);

    // Without sign-in the address may be shared; turning sign-in on then clashes.
    const quiet = await as(project, "server", `/users/${user.id}`, { method: "PATCH", body: { primary_email: taken, primary_email_auth_enabled: false } });
    expect(quiet.status).toBe(200);
    expectKnownError(await as(project, "server", `/users/${user.id}`, { method: "PATCH", body: { primary_email_auth_enabled: true } }), "USER_EMAIL_ALREADY_EXISTS", 409);
  });

  it("revokes all the user's sessions when a password is set", async () => {
    const project = await createTestProject(server);
    const address = email();
    const user = await createUser(project, { primary_email: address, primary_email_auth_enabled: true });
    const sessions = [await signIn(project, user.id), await signIn(project, user.id)];
    const other = await createUser(project);
    const bystander = await signIn(project, other.id);

    const response = await as(project, "server", `/users/${user.id}`, { method: "PATCH", body: { password: "brand new password" } });
    expect(response.status).toBe(200);
    expect(response.body.has_password).toBe(true);
    for (const tokens of sessions) {
      await expect(sessionOfRefreshToken(server.db, project.projectId, tokens.refresh_token)).rejects.toMatchObject({ code: "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED" });
    }
    expect(await server.db.selectFrom("sessions").selectAll().where("user_id", "=", user.id).execute()).toEqual([]);
    await expect(sessionOfRefreshToken(server.db, project.projectId, bystander.refresh_token)).resolves.toBeDefined();
    const signedIn = await api(server.url, "/auth/password/sign-in", { headers: project.headers("client"), body: { email: address, password: "brand new password" } });
    expect(signedIn.status).toBe(200);
  });

  it("revokes sessions for an imported hash and for a removed password as well", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project, { password: "first password" });
    const patch = (body: unknown) => as(project, "server", `/users/${user.id}`, { method: "PATCH", body });
    let tokens = await signIn(project, user.id);
    expect((await patch({ password_hash: bcrypt.hashSync("imported", 4) })).body.has_password).toBe(true);
    await expect(sessionOfRefreshToken(server.db, project.projectId, tokens.refresh_token)).rejects.toThrow();

    tokens = await signIn(project, user.id);
    expect((await patch({ password: null })).body.has_password).toBe(false);
    await expect(sessionOfRefreshToken(server.db, project.projectId, tokens.refresh_token)).rejects.toThrow();

    tokens = await signIn(project, user.id);
    expect((await patch({ password_hash: "$5$rounds=5000$salt$hash" })).text).toBe("Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.");
    expectSchemaError(await patch({ password: "😀".repeat(36) }), "body.password must be at most 70 characters");
    // Refused changes end no session.
    await expect(sessionOfRefreshToken(server.db, project.projectId, tokens.refresh_token)).resolves.toBeDefined();
  });

  it("upgrades an anonymous user but never makes a user anonymous", async () => {
    const project = await createTestProject(server);
    const anonymous = await createUser(project, { is_anonymous: true });
    const regular = await createUser(project);
    expectSchemaError(await as(project, "server", `/users/${regular.id}`, { method: "PATCH", body: { is_anonymous: true } }), "body.is_anonymous must be one of the following values: false");
    const upgraded = await as(project, "server", `/users/${anonymous.id}`, { method: "PATCH", body: { is_anonymous: false, primary_email: email(), primary_email_auth_enabled: true } });
    expect(upgraded.body.is_anonymous).toBe(false);
  });

  it("sets the selected team of a member only", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project);
    const team = await createTeam(project, [user.id]);
    const stranger = await createTeam(project);
    expectKnownError(await as(project, "server", `/users/${user.id}`, { method: "PATCH", body: { selected_team_id: stranger } }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    const selected = await as(project, "server", `/users/${user.id}`, { method: "PATCH", body: { selected_team_id: team } });
    expect(selected.body.selected_team).toMatchObject({ id: team, server_metadata: null });
    expect(typeof selected.body.selected_team.created_at_millis).toBe("number");
  });

  it("deletes a user with their sessions, channels and memberships; their access token stops working at once", async () => {
    const project = await createTestProject(server);
    const address = email();
    const user = await createUser(project, { primary_email: address, primary_email_auth_enabled: true });
    const team = await createTeam(project, [user.id]);
    const tokens = await signIn(project, user.id);
    expect((await as(project, "client", "/users/me", { tokens })).status).toBe(200);

    const deleted = await as(project, "server", `/users/${user.id}`, { method: "DELETE", body: {} });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    expectKnownError(await as(project, "client", "/users/me", { tokens }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await as(project, "server", `/users/${user.id}`), "USER_NOT_FOUND", 404);
    await expect(sessionOfRefreshToken(server.db, project.projectId, tokens.refresh_token)).rejects.toThrow();
    for (const table of ["sessions", "contact_channels", "team_members"] as const) {
      expect(await server.db.selectFrom(table).selectAll().where("user_id", "=", user.id).execute()).toEqual([]);
    }
    // The team stays, and the email is free again.
    expect(await server.db.selectFrom("teams").select("id").where("id", "=", team).executeTakeFirst()).toBeDefined();
    await createUser(project, { primary_email: address, primary_email_auth_enabled: true });
  });
});
