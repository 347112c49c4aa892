import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { createTestProject } from "./support/test-server.js";
import { api } from "./support/api.js";
import { server, as, createUser, signIn, configure, email, expectSchemaError, expectKnownError, SERVER_READ_KEYS, useServerForFile } from "./support/users-fixture.js";

useServerForFile();

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
    // The password works; with a TOTP secret set, signing in then asks for the second factor.
    const signedIn = await api(server.url, "/auth/password/sign-in", { headers: project.headers("client"), body: { email: address, password: "server-set password" } });
    expect(signedIn.status).toBe(400);
    expect(signedIn.body.code).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");
    expect(signedIn.body.details.attempt_code).toEqual(expect.any(String));
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
    // A server's email is checked loosely, as the protocol does (`user@example` passes; sign-up is stricter).
    for (const bad of ["plainaddress", "user@@example.com", "user@", tld]) {
      expectSchemaError(await create({ primary_email: bad }), "body.primary_email must be a valid email");
    }
    expectSchemaError(await create({ primary_email: "" }), "body.primary_email must not be empty");
    expectSchemaError(await create({ display_name: "x".repeat(257) }), "body.display_name must be at most 256 characters");
    expectSchemaError(await create({ profile_image_url: `data:image/png;base64,${"A".repeat(1_000_000)}` }), "body.profile_image_url must be at most 1000000 characters");
    // Its length is the last of its tests, as the protocol orders them.
    const everything = await create({ profile_image_url: `not a url ${"A".repeat(1_000_000)}` });
    expect(everything.body.error.split("\n").slice(1)).toEqual([
      "  - body.profile_image_url contains spaces",
      "  - body.profile_image_url is not a valid URL",
      "  - body.profile_image_url must be at most 1000000 characters",
    ]);
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

  it("counts password length in UTF-16 code units: at most 70, multibyte passwords included, and no minimum", async () => {
    const project = await createTestProject(server);
    const create = (password: string) => as(project, "server", "/users", { method: "POST", body: { primary_email: email(), primary_email_auth_enabled: true, password } });

    // A server sets any password up to 70 units, as in the protocol; beyond, its schema refuses the body.
    expect((await create("seven77")).status).toBe(201);
    expectSchemaError(await create("x".repeat(71)), "body.password must be at most 70 characters");

    // é and 日 are one UTF-16 unit each (two and three UTF-8 bytes); 😀 is two units.
    for (const [password, accepted] of [["é".repeat(70), true], ["é".repeat(71), false], ["日".repeat(70), true], ["日".repeat(71), false], ["😀".repeat(35), true], ["😀".repeat(36), false], ["😀".repeat(3) + "a", true]] as const) {
      const response = await create(password);
      if (accepted) {
        expect(response.status, password).toBe(201);
        const signedIn = await api(server.url, "/auth/password/sign-in", { headers: project.headers("client"), body: { email: response.body.primary_email, password } });
        expect(signedIn.status).toBe(200);
      } else {
        expectSchemaError(response, "body.password must be at most 70 characters");
      }
    }
  });

  it("refuses OAuth provider accounts of providers the project has not enabled, writing nothing", async () => {
    const project = await createTestProject(server);
    expectKnownError(
      await as(project, "server", "/users", { method: "POST", body: { oauth_providers: [{ id: "github", account_id: "1", email: null }] } }),
      "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
      400,
    );
    expect((await as(project, "server", "/users", { method: "POST", body: { oauth_providers: [] } })).status).toBe(201);
    // Nothing of the refused user was written: only the one created afterwards exists.
    expect((await as(project, "server", "/users")).body.items).toHaveLength(1);
  });
});
