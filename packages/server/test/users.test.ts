import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionOfRefreshToken, signInUser } from "../src/services/sessions.js";
import { api, type ApiResponse } from "./support/api.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

type Access = "client" | "server" | "admin";
interface Tokens {
  access_token: string;
  refresh_token: string;
}
interface Call {
  method?: string;
  body?: unknown;
  tokens?: Tokens;
}

const email = () => `user-${crypto.randomUUID()}@example.com`;

function as(project: TestProject, access: Access, path: string, call: Call = {}): Promise<ApiResponse> {
  const headers = { ...project.headers(access), ...(call.tokens ? { "x-stack-access-token": call.tokens.access_token } : {}) };
  return api(server.url, path, { method: call.method, body: call.body, headers });
}

async function createUser(project: TestProject, body: Record<string, unknown> = {}): Promise<any> {
  const response = await as(project, "server", "/users", { method: "POST", body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const signIn = (project: TestProject, userId: string) => signInUser(server.db, server.env, { projectId: project.projectId, userId });

async function configure(project: TestProject, override: Record<string, unknown>) {
  const response = await as(project, "admin", "/internal/config/override", { method: "PATCH", body: { config_override_string: JSON.stringify(override) } });
  expect(response.status).toBe(200);
}

/** A team in the project (teams have no routes yet), optionally with members. */
async function createTeam(project: TestProject, memberIds: string[] = []): Promise<string> {
  const team = await server.db
    .insertInto("teams")
    .values({ project_id: project.projectId, display_name: "Team", profile_image_url: null, client_metadata: null, client_read_only_metadata: null, server_metadata: null })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const userId of memberIds) {
    await server.db.insertInto("team_members").values({ project_id: project.projectId, team_id: team.id, user_id: userId, display_name: null, profile_image_url: null }).execute();
  }
  return team.id;
}

function expectSchemaError(response: ApiResponse, ...fragments: string[]) {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body.code).toBe("SCHEMA_ERROR");
  for (const fragment of fragments) expect(response.body.error).toContain(fragment);
}

function expectKnownError(response: ApiResponse, code: string, status: number) {
  expect(response.body.code, JSON.stringify(response.body)).toBe(code);
  expect(response.status).toBe(status);
}

const SERVER_READ_KEYS = [
  "auth_with_email", "client_metadata", "client_read_only_metadata", "display_name", "has_password", "id", "is_anonymous",
  "last_active_at_millis", "oauth_providers", "otp_auth_enabled", "passkey_auth_enabled", "primary_email", "primary_email_auth_enabled",
  "primary_email_verified", "profile_image_url", "requires_totp_mfa", "selected_team", "selected_team_id", "server_metadata", "signed_up_at_millis",
];
const CLIENT_READ_KEYS = [
  "auth_with_email", "client_metadata", "client_read_only_metadata", "display_name", "has_password", "id", "is_anonymous",
  "oauth_providers", "otp_auth_enabled", "passkey_auth_enabled", "primary_email", "primary_email_verified", "profile_image_url",
  "requires_totp_mfa", "selected_team", "selected_team_id", "signed_up_at_millis",
];

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
    const image = `data:image/png;base64,${"A".repeat(1000)}`;
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
      profile_image_url: image,
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
    expectSchemaError(await patch({ profile_image_url: "not a url" }), "body.profile_image_url contains spaces");
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

describe("creating users (POST /users)", () => {
  it("creates a user with every writable field, even when sign-up is disabled", async () => {
    const project = await createTestProject(server);
    await configure(project, { "auth.allowSignUp": false });
    const address = email();
    const response = await as(project, "server", "/users", {
      method: "POST",
      body: {
        primary_email: address,
        primary_email_verified: true,
        primary_email_auth_enabled: true,
        display_name: "Made by server",
        profile_image_url: "https://example.com/a.png",
        client_metadata: ["any", "json"],
        client_read_only_metadata: 42,
        server_metadata: "a string",
        password: "server-set password",
        otp_auth_enabled: true,
        passkey_auth_enabled: true,
        totp_secret_base64: "AAAA",
      },
    });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(SERVER_READ_KEYS);
    expect(response.body).toMatchObject({
      primary_email: address,
      primary_email_verified: true,
      primary_email_auth_enabled: true,
      auth_with_email: true,
      display_name: "Made by server",
      profile_image_url: "https://example.com/a.png",
      client_metadata: ["any", "json"],
      client_read_only_metadata: 42,
      server_metadata: "a string",
      has_password: true,
      otp_auth_enabled: true,
      passkey_auth_enabled: true,
      requires_totp_mfa: true,
      is_anonymous: false,
      selected_team: null,
      oauth_providers: [],
    });
    const signedIn = await api(server.url, "/auth/password/sign-in", { headers: project.headers("client"), body: { email: address, password: "server-set password" } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user_id).toBe(response.body.id);
  });

  it("creates an empty user, whose email does not sign in unless asked", async () => {
    const project = await createTestProject(server);
    const empty = await createUser(project);
    expect(empty).toMatchObject({ primary_email: null, display_name: null, has_password: false, client_metadata: null, server_metadata: null, is_anonymous: false });
    const address = email();
    const withEmail = await createUser(project, { primary_email: address });
    expect(withEmail).toMatchObject({ primary_email: address, primary_email_auth_enabled: false, primary_email_verified: false });
    // The email does not sign in, so another account may sign in with it.
    expect((await createUser(project, { primary_email: address, primary_email_auth_enabled: true })).primary_email_auth_enabled).toBe(true);
  });

  it("refuses client access to the server user endpoints", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project);
    const tokens = await signIn(project, user.id);
    for (const [method, path] of [["POST", "/users"], ["GET", "/users"], ["GET", `/users/${user.id}`], ["PATCH", `/users/${user.id}`], ["DELETE", `/users/${user.id}`]] as const) {
      const response = await as(project, "client", path, { method, tokens, body: method === "GET" ? undefined : {} });
      expectKnownError(response, "INSUFFICIENT_ACCESS_TYPE", 401);
    }
  });

  it("refuses an email another account signs in with", async () => {
    const project = await createTestProject(server);
    const address = email();
    await createUser(project, { primary_email: address, primary_email_auth_enabled: true });
    const clash = await as(project, "server", "/users", { method: "POST", body: { primary_email: address, primary_email_auth_enabled: true } });
    expectKnownError(clash, "USER_EMAIL_ALREADY_EXISTS", 409);
    expect(clash.body.details).toEqual({ email: address, would_work_if_email_was_verified: false });
    // Another project has its own accounts.
    await createUser(await createTestProject(server), { primary_email: address, primary_email_auth_enabled: true });
  });

  it("lets exactly one of 50 concurrent creations with the same email succeed", async () => {
    const project = await createTestProject(server);
    const address = email();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => as(project, "server", "/users", { method: "POST", body: { primary_email: address, primary_email_auth_enabled: true } })),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = responses.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(49);
    for (const response of refused) expectKnownError(response, "USER_EMAIL_ALREADY_EXISTS", 409);
    const list = await as(project, "server", `/users?query=${encodeURIComponent(address)}`);
    expect(list.body.items).toHaveLength(1);
  });

  it("creates anonymous users", async () => {
    const project = await createTestProject(server);
    const anonymous = await createUser(project, { is_anonymous: true });
    expect(anonymous.is_anonymous).toBe(true);
  });

  it("rejects invalid fields with the protocol's messages", async () => {
    const project = await createTestProject(server);
    const create = (body: unknown) => as(project, "server", "/users", { method: "POST", body });
    const tld = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(60)}.com`;
    expect(tld.length).toBeGreaterThan(256);
    for (const bad of ["plainaddress", ".leading@example.com", "user@example.c", "user@@example.com", "user@example", tld]) {
      expectSchemaError(await create({ primary_email: bad }), "body.primary_email must be a valid email");
    }
    expectSchemaError(await create({ primary_email: "" }), "body.primary_email must not be empty");
    expectSchemaError(await create({ display_name: "x".repeat(257) }), "body.display_name must be at most 256 characters");
    expectSchemaError(await create({ profile_image_url: `data:image/png;base64,${"A".repeat(1_000_000)}` }), "body.profile_image_url must be at most 1000000 characters");
    expectSchemaError(await create({ totp_secret_base64: "AAA" }), "body.totp_secret_base64 is not valid base64");
    expectSchemaError(await create({ password_hash: "" }), "body.password_hash must not be empty");
    expectSchemaError(await create({ selected_team_id: crypto.randomUUID() }), "body contains unknown properties: selected_team_id");
    expectSchemaError(await create({ surprise: 1 }), "body contains unknown properties: surprise");
    expectSchemaError(await create({ is_anonymous: "no" }), "body.is_anonymous must be a `boolean` type");
    expect((await create({ display_name: "x".repeat(256), primary_email: `${"a".repeat(64)}@example.com` })).status).toBe(201);
    const maxImage = "data:image/png;base64," + "A".repeat(1_000_000 - "data:image/png;base64,".length);
    expect((await create({ profile_image_url: maxImage })).body.profile_image_url).toBe(maxImage);
    expect((await as(project, "server", "/users?limit=100")).body.items).toHaveLength(2);
  });

  it("refuses sign-in flags without a primary email", async () => {
    const project = await createTestProject(server);
    const noEmail = await as(project, "server", "/users", { method: "POST", body: { primary_email_auth_enabled: true } });
    expect(noEmail.status).toBe(400);
    expect(noEmail.text).toBe("primary_email_auth_enabled cannot be true without primary_email");
    const unverified = await as(project, "server", "/users", { method: "POST", body: { primary_email_verified: true } });
    expect(unverified.text).toBe("primary_email_verified cannot be true without primary_email");
  });

  it("imports a password hash in modular crypt format, which then signs in", async () => {
    const project = await createTestProject(server);
    const address = email();
    const user = await createUser(project, { primary_email: address, primary_email_auth_enabled: true, password_hash: bcrypt.hashSync("legacy password", 4) });
    expect(user.has_password).toBe(true);
    const signedIn = await api(server.url, "/auth/password/sign-in", { headers: project.headers("client"), body: { email: address, password: "legacy password" } });
    expect(signedIn.status).toBe(200);

    const bad = await as(project, "server", "/users", { method: "POST", body: { password_hash: "md5$abc" } });
    expect(bad.status).toBe(400);
    expect(bad.text).toBe("Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.");
    const both = await as(project, "server", "/users", { method: "POST", body: { password: "long enough", password_hash: bcrypt.hashSync("x", 4) } });
    expect(both.status).toBe(400);
    expect(both.text).toBe("Cannot set both password and password_hash at the same time.");
  });

  it("counts password length in UTF-16 code units: 8 to 70, multibyte passwords included", async () => {
    const project = await createTestProject(server);
    const create = (password: string) => as(project, "server", "/users", { method: "POST", body: { primary_email: email(), primary_email_auth_enabled: true, password } });

    const short = await create("seven77");
    expectKnownError(short, "PASSWORD_TOO_SHORT", 400);
    expect(short.body.details).toEqual({ min_length: 8 });
    // Beyond 70 the protocol's schema refuses the body before the password rules run.
    expectSchemaError(await create("x".repeat(71)), "body.password must be at most 70 characters");

    // é and 日 are one UTF-16 unit each (two and three UTF-8 bytes); 😀 is two units.
    for (const [password, accepted] of [["é".repeat(70), true], ["é".repeat(71), false], ["日".repeat(70), true], ["日".repeat(71), false], ["😀".repeat(35), true], ["😀".repeat(36), false], ["😀".repeat(4), true], ["😀".repeat(3) + "a", false]] as const) {
      const response = await create(password);
      if (accepted) {
        expect(response.status, password).toBe(201);
        const signedIn = await api(server.url, "/auth/password/sign-in", { headers: project.headers("client"), body: { email: response.body.primary_email, password } });
        expect(signedIn.status).toBe(200);
      } else if (password.length > 70) {
        expectSchemaError(response, "body.password must be at most 70 characters");
      } else {
        expectKnownError(response, "PASSWORD_TOO_SHORT", 400);
      }
    }
  });

  it("refuses OAuth provider accounts, which cannot be linked yet", async () => {
    const project = await createTestProject(server);
    expectKnownError(
      await as(project, "server", "/users", { method: "POST", body: { oauth_providers: [{ id: "github", account_id: "1", email: null }] } }),
      "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
      400,
    );
    expect((await as(project, "server", "/users", { method: "POST", body: { oauth_providers: [] } })).status).toBe(201);
  });
});

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
    // A changed address is no longer verified, and keeps signing in.
    const second = email();
    expect((await patch({ primary_email: second })).body).toMatchObject({ primary_email: second, primary_email_verified: false, primary_email_auth_enabled: true });
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
    expectKnownError(await patch({ password: "short" }), "PASSWORD_TOO_SHORT", 400);
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
