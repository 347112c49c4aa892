import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { sessionOfRefreshToken } from "../src/services/sessions.js";
import { createTestProject } from "./support/test-server.js";
import { dataUrl, png } from "./support/tiny-images.js";
import { server, as, createUser, signIn, configure, createTeam, email, expectSchemaError, expectKnownError, SERVER_READ_KEYS, CLIENT_READ_KEYS, useServerForFile } from "./support/users-fixture.js";

useServerForFile();

describe("the signed-in user at /users/me", () => {
  it("shows a client the client shape and a server or admin the server shape", async () => {
    const project = await createTestProject(server);
    const address = email();
    const user = await createUser(project, { primary_email: address, display_name: "Ada", server_metadata: { secret: 1 } });
    const tokens = await signIn(project, user.id);

    const client = await as(project, "client", "/users/me", { tokens });
    expect(client.status).toBe(200);
    expect(Object.keys(client.body).sort()).toEqual(CLIENT_READ_KEYS);
    expect(client.body).toMatchObject({ id: user.id, primary_email: address, display_name: "Ada" });
    for (const access of ["server", "admin"] as const) {
      const read = await as(project, access, "/users/me", { tokens });
      expect(read.status).toBe(200);
      expect(Object.keys(read.body).sort()).toEqual(SERVER_READ_KEYS);
      expect(read.body.server_metadata).toEqual({ secret: 1 });
    }
  });

  it("answers CANNOT_GET_OWN_USER_WITHOUT_USER to every method without a signed-in user", async () => {
    const project = await createTestProject(server);
    for (const access of ["client", "server", "admin"] as const) {
      expectKnownError(await as(project, access, "/users/me"), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
      expectKnownError(await as(project, access, "/users/me", { method: "PATCH", body: {} }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
      expectKnownError(await as(project, access, "/users/me", { method: "DELETE", body: {} }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    }
    expectKnownError(await as(project, "server", "/users/me", { method: "PATCH", body: { server_metadata: 1 } }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });

  it("lets a client update every field a client may write", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project);
    const tokens = await signIn(project, user.id);
    // A client uploads an image as a data URL; it reads back as the URL the server serves it at (issue 13).
    const image = dataUrl("png", png());
    const response = await as(project, "client", "/users/me", {
      method: "PATCH",
      tokens,
      body: {
        display_name: "Grace",
        profile_image_url: image,
        client_metadata: { theme: "dark", nested: { list: [1, "two", null, true] } },
        otp_auth_enabled: true,
        passkey_auth_enabled: true,
        totp_secret_base64: "dG90cC1zZWNyZXQ=",
      },
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(CLIENT_READ_KEYS);
    expect(response.body).toMatchObject({
      display_name: "Grace",
      profile_image_url: expect.stringMatching(/\/api\/v1\/profile-images\/[0-9a-f-]{36}$/),
      client_metadata: { theme: "dark", nested: { list: [1, "two", null, true] } },
      otp_auth_enabled: true,
      passkey_auth_enabled: true,
      requires_totp_mfa: true,
    });
    const stored = await server.db.selectFrom("users").select("totp_secret").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(Buffer.from(stored.totp_secret!).toString()).toBe("totp-secret");

    const cleared = await as(project, "client", "/users/me", { method: "PATCH", tokens, body: { display_name: null, profile_image_url: null, client_metadata: null, totp_secret_base64: null } });
    expect(cleared.body).toMatchObject({ display_name: null, profile_image_url: null, client_metadata: null, requires_totp_mfa: false });
  });

  it("refuses every server-only field from a client and changes nothing", async () => {
    const project = await createTestProject(server);
    const address = email();
    const user = await createUser(project, { primary_email: address, display_name: "Before", client_read_only_metadata: { plan: "free" }, server_metadata: { note: "x" } });
    const tokens = await signIn(project, user.id);
    const serverOnly: Record<string, unknown> = {
      client_read_only_metadata: { plan: "pro" },
      server_metadata: { note: "hacked" },
      primary_email: email(),
      primary_email_verified: true,
      primary_email_auth_enabled: true,
      password: "a new password",
      password_hash: bcrypt.hashSync("a new password", 4),
      is_anonymous: false,
    };
    for (const [field, value] of Object.entries(serverOnly)) {
      const response = await as(project, "client", "/users/me", { method: "PATCH", tokens, body: { display_name: "After", [field]: value } });
      expectSchemaError(response, `body contains unknown properties: ${field}`);
    }
    const after = await as(project, "server", `/users/${user.id}`);
    expect(after.body).toMatchObject({
      display_name: "Before",
      client_read_only_metadata: { plan: "free" },
      server_metadata: { note: "x" },
      primary_email: address,
      primary_email_verified: false,
      primary_email_auth_enabled: false,
      has_password: false,
    });
    // The session survived: no password was set.
    await expect(sessionOfRefreshToken(server.db, project.projectId, tokens.refresh_token)).resolves.toBeDefined();
  });

  it("lets a user select only a team they are a member of", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project);
    const other = await createUser(project);
    const tokens = await signIn(project, user.id);
    const own = await createTeam(project, [user.id]);
    const foreign = await createTeam(project, [other.id]);

    const notMember = await as(project, "client", "/users/me", { method: "PATCH", tokens, body: { selected_team_id: foreign } });
    expectKnownError(notMember, "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(notMember.body.details).toEqual({ team_id: foreign, user_id: user.id });
    expectKnownError(await as(project, "client", "/users/me", { method: "PATCH", tokens, body: { selected_team_id: crypto.randomUUID() } }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expectSchemaError(await as(project, "client", "/users/me", { method: "PATCH", tokens, body: { selected_team_id: "not-a-uuid" } }), "body.selected_team_id must be a valid UUID");

    const selected = await as(project, "client", "/users/me", { method: "PATCH", tokens, body: { selected_team_id: own.toUpperCase() } });
    expect(selected.status).toBe(200);
    expect(selected.body.selected_team_id).toBe(own);
    expect(selected.body.selected_team).toMatchObject({ id: own, display_name: "Team" });
    expect(selected.body.selected_team).not.toHaveProperty("server_metadata");
    const server_ = await as(project, "server", `/users/${user.id}`);
    expect(server_.body.selected_team).toHaveProperty("server_metadata");

    const unselected = await as(project, "client", "/users/me", { method: "PATCH", tokens, body: { selected_team_id: null } });
    expect(unselected.body).toMatchObject({ selected_team_id: null, selected_team: null });
  });

  it("lets a client delete its own account only when the project allows it", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project, { primary_email: email() });
    const tokens = await signIn(project, user.id);

    const refused = await as(project, "client", "/users/me", { method: "DELETE", tokens, body: {} });
    expect(refused.status).toBe(400);
    expect(refused.text).toBe("Client user deletion is not enabled for this project");
    expect((await as(project, "server", `/users/${user.id}`)).status).toBe(200);

    await configure(project, { "users.allowClientUserDeletion": true });
    const deleted = await as(project, "client", "/users/me", { method: "DELETE", tokens, body: {} });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    // The access token is still unexpired, but its user is gone.
    expectKnownError(await as(project, "client", "/users/me", { tokens }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await as(project, "server", `/users/${user.id}`), "USER_NOT_FOUND", 404);
  });

  it("lets a server delete and update the signed-in user whatever the client deletion setting", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project);
    const tokens = await signIn(project, user.id);
    const updated = await as(project, "server", "/users/me", { method: "PATCH", tokens, body: { server_metadata: { tier: 2 }, client_read_only_metadata: "read only" } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ server_metadata: { tier: 2 }, client_read_only_metadata: "read only" });
    const deleted = await as(project, "server", "/users/me", { method: "DELETE", tokens, body: {} });
    expect(deleted.body).toEqual({ success: true });
    expectKnownError(await as(project, "server", `/users/${user.id}`), "USER_NOT_FOUND", 404);
  });

  it("rejects client updates that break the field rules", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project);
    const tokens = await signIn(project, user.id);
    const patch = (body: unknown) => as(project, "client", "/users/me", { method: "PATCH", tokens, body });
    expectSchemaError(await patch({ display_name: "x".repeat(257) }), "body.display_name must be at most 256 characters");
    expectSchemaError(await patch({ display_name: "nul\u0000name" }), "body.display_name must not contain null characters");
    // The protocol's two URL tests report separately: "not a url" fails both, "https://a.com/a b" (which parses) the first.
    expectSchemaError(await patch({ profile_image_url: "not a url" }), "body.profile_image_url contains spaces\n  - body.profile_image_url is not a valid URL");
    const spaceInPath = await patch({ profile_image_url: "https://example.com/a b.png" });
    expect(spaceInPath.body.error.split("\n").slice(1)).toEqual(["  - body.profile_image_url contains spaces"]);
    expectSchemaError(await patch({ profile_image_url: "nope" }), "body.profile_image_url is not a valid URL");
    expectSchemaError(await patch({ totp_secret_base64: "not base64!" }), "body.totp_secret_base64 is not valid base64");
    expectSchemaError(await patch({ otp_auth_enabled: "yes" }), "body.otp_auth_enabled must be a `boolean` type");
    expectSchemaError(await patch({ client_metadata: { key: "nul\u0000" } }), "body.client_metadata.key must not contain null characters or unpaired surrogates");
    expectSchemaError(await patch({ client_metadata: { key: "\ud800" } }), "body.client_metadata.key must not contain null characters or unpaired surrogates");
    expectSchemaError(await patch("[]"), "body must be a `object` type");
    expect((await as(project, "server", `/users/${user.id}`)).body.display_name).toBeNull();
  });

  it("refuses metadata nested too deeply instead of failing", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project);
    const tokens = await signIn(project, user.id);
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const response = await as(project, "client", "/users/me", { method: "PATCH", tokens, body: `{"client_metadata": ${deep}}` });
    expectSchemaError(response, "body.client_metadata must not be nested more than 1000 levels deep");
    const ok = "[".repeat(1000) + "]".repeat(1000);
    expect((await as(project, "client", "/users/me", { method: "PATCH", tokens, body: `{"client_metadata": ${ok}}` })).status).toBe(200);
  });
});
