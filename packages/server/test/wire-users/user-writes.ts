import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { api } from "../support/api.js";
import { createTestProject, type TestProject } from "../support/test-server.js";
import { bmp, gif, jpeg, png, webp } from "../support/tiny-images.js";
import { as, configure, createUser, email, expectSchemaError, server, signIn } from "../support/users-fixture.js";

// Issue 13 §2: what servers and clients see when they create and change users, as the reference answers.
describe("user writes", () => {
  const INVALID_HASH = "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.";
  const patchUser = (project: TestProject, userId: string, body: unknown) => as(project, "server", `/users/${userId}`, { method: "PATCH", body });
  const readUser = async (project: TestProject, userId: string) => (await as(project, "server", `/users/${userId}`)).body;
  const signInWithPassword = (project: TestProject, address: string, password: string) =>
    api(server.url, "/auth/password/sign-in", { headers: project.headers("client"), body: { email: address, password } });

  describe("POST /users with personal teams on sign-up", () => {
    it("answers without a selected team, which later reads show", async () => {
      const project = await createTestProject(server);
      await configure(project, { "teams.createPersonalTeamOnSignUp": true });
      const created = await as(project, "server", "/users", { method: "POST", body: { display_name: "Ada" } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ selected_team: null, selected_team_id: null });
      const read = await readUser(project, created.body.id);
      expect(read.selected_team_id).toEqual(expect.any(String));
      expect(read.selected_team).toMatchObject({ id: read.selected_team_id, display_name: "Ada's Team" });
    });

    it("names the team after the display name, else the email, else 'Personal Team'", async () => {
      const project = await createTestProject(server);
      await configure(project, { "teams.createPersonalTeamOnSignUp": true });
      const address = email();
      const teamOf = async (body: Record<string, unknown>) => (await readUser(project, (await createUser(project, body)).id)).selected_team.display_name;
      expect(await teamOf({ display_name: "Grace", primary_email: email() })).toBe("Grace's Team");
      expect(await teamOf({ primary_email: address })).toBe(`${address}'s Team`);
      expect(await teamOf({})).toBe("Personal Team");
      expect(await teamOf({ display_name: "" })).toBe("Personal Team");
    });
  });

  describe("auth_with_email", () => {
    it("is has_password or otp_auth_enabled, whatever the contact channels say", async () => {
      const project = await createTestProject(server);
      const cases: Array<[Record<string, unknown>, boolean]> = [
        [{}, false],
        [{ primary_email: email(), primary_email_auth_enabled: true, primary_email_verified: true }, false],
        [{ password: "a password" }, true],
        [{ primary_email: email(), primary_email_auth_enabled: false, password: "a password" }, true],
        [{ otp_auth_enabled: true }, true],
      ];
      for (const [body, expected] of cases) {
        const user = await createUser(project, body);
        expect(user.auth_with_email, JSON.stringify(body)).toBe(expected);
        const client = await as(project, "client", "/users/me", { tokens: await signIn(project, user.id) });
        expect(client.body.auth_with_email).toBe(expected);
      }
      const user = await createUser(project);
      expect((await patchUser(project, user.id, { otp_auth_enabled: true })).body.auth_with_email).toBe(true);
      expect((await patchUser(project, user.id, { otp_auth_enabled: false })).body.auth_with_email).toBe(false);
    });
  });

  describe("passwords a server sets", () => {
    it("have no minimum length, on create and update, and sign in", async () => {
      const project = await createTestProject(server);
      const address = email();
      const created = await as(project, "server", "/users", { method: "POST", body: { primary_email: address, primary_email_auth_enabled: true, password: "a" } });
      expect(created.status).toBe(201);
      expect(created.body.has_password).toBe(true);
      expect((await signInWithPassword(project, address, "a")).status).toBe(200);

      const updated = await patchUser(project, created.body.id, { password: "" });
      expect(updated.status).toBe(200);
      expect(updated.body.has_password).toBe(true);
      expect((await signInWithPassword(project, address, "")).status).toBe(200);
    });

    it("are at most 70 characters", async () => {
      const project = await createTestProject(server);
      expectSchemaError(await as(project, "server", "/users", { method: "POST", body: { password: "x".repeat(71) } }), "body.password must be at most 70 characters");
      expect((await as(project, "server", "/users", { method: "POST", body: { password: "x".repeat(70) } })).status).toBe(201);
    });

    it("keep their minimum for sign-up", async () => {
      const project = await createTestProject(server);
      await configure(project, { "auth.password.allowSignIn": true });
      const response = await api(server.url, "/auth/password/sign-up", { headers: project.headers("client"), body: { email: email(), password: "short" } });
      expect(response.body).toMatchObject({ code: "PASSWORD_TOO_SHORT", details: { min_length: 8 } });
    });
  });

  describe("password hashes a server imports", () => {
    // A real cost-4 hash with another cost written in (whether the cost is accepted is decided before any hashing).
    const withCost = (cost: string) => {
      const hash = bcrypt.hashSync("imported password", 4);
      expect(hash).toMatch(/^\$2[aby]\$04\$/);
      return `${hash.slice(0, 4)}${cost}${hash.slice(6)}`;
    };

    it("refuse a bcrypt cost above 16 with the reference's text", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project);
      for (const cost of ["17", "20", "31"]) {
        const created = await as(project, "server", "/users", { method: "POST", body: { password_hash: withCost(cost) } });
        expect(created.status).toBe(400);
        expect(created.text).toBe(INVALID_HASH);
        const updated = await patchUser(project, user.id, { password_hash: withCost(cost) });
        expect(updated.status).toBe(400);
        expect(updated.text).toBe(INVALID_HASH);
      }
      expect((await readUser(project, user.id)).has_password).toBe(false);
    });

    it("accept bcrypt costs up to 16", async () => {
      const project = await createTestProject(server);
      const address = email();
      const imported = await createUser(project, { primary_email: address, primary_email_auth_enabled: true, password_hash: withCost("04") });
      expect((await signInWithPassword(project, address, "imported password")).status).toBe(200);
      expect((await patchUser(project, imported.id, { password_hash: withCost("16") })).body.has_password).toBe(true);
    });
  });

  describe("emails a server sets", () => {
    it("are checked loosely on create and update", async () => {
      const project = await createTestProject(server);
      const created = await as(project, "server", "/users", { method: "POST", body: { primary_email: "invalid_email@gmai" } });
      expect(created.status).toBe(201);
      expect(created.body.primary_email).toBe("invalid_email@gmai");
      for (const loose of ["user@example", "user@example.c", ".leading@example.com"]) {
        expect((await patchUser(project, created.body.id, { primary_email: loose })).body.primary_email).toBe(loose);
      }
      for (const bad of ["plainaddress", "user@@example.com", "user@", `${"a".repeat(250)}@example.com`]) {
        expectSchemaError(await as(project, "server", "/users", { method: "POST", body: { primary_email: bad } }), "body.primary_email must be a valid email");
        expectSchemaError(await patchUser(project, created.body.id, { primary_email: bad }), "body.primary_email must be a valid email");
      }
    });

    it("stay strictly checked for sign-up and sign-in", async () => {
      const project = await createTestProject(server);
      await configure(project, { "auth.password.allowSignIn": true });
      for (const path of ["/auth/password/sign-up", "/auth/password/sign-in"]) {
        const response = await api(server.url, path, { headers: project.headers("client"), body: { email: "invalid_email@gmai", password: "correct horse" } });
        expectSchemaError(response, "body.email must be a valid email");
      }
    });
  });

  describe("display names", () => {
    it("store an empty name as null, for servers and clients", async () => {
      const project = await createTestProject(server);
      const created = await createUser(project, { display_name: "" });
      expect(created.display_name).toBeNull();
      expect((await patchUser(project, created.id, { display_name: "Ada" })).body.display_name).toBe("Ada");
      expect((await patchUser(project, created.id, { display_name: "" })).body.display_name).toBeNull();
      const tokens = await signIn(project, created.id);
      await patchUser(project, created.id, { display_name: "Ada" });
      const cleared = await as(project, "client", "/users/me", { method: "PATCH", tokens, body: { display_name: "" } });
      expect(cleared.body.display_name).toBeNull();
      const row = await server.db.selectFrom("users").select("display_name").where("id", "=", created.id).executeTakeFirstOrThrow();
      expect(row.display_name).toBeNull();
    });
  });

  describe("changing the primary email through the server", () => {
    it("replaces the value in place and keeps it verified", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project, { primary_email: email(), primary_email_verified: true, primary_email_auth_enabled: true });
      const channelsOf = () => server.db.selectFrom("contact_channels").select(["id", "value", "is_verified", "used_for_auth"]).where("user_id", "=", user.id).execute();
      const [before] = await channelsOf();

      const address = email();
      const changed = await patchUser(project, user.id, { primary_email: address });
      expect(changed.body).toMatchObject({ primary_email: address, primary_email_verified: true, primary_email_auth_enabled: true });
      expect(await channelsOf()).toEqual([{ id: before!.id, value: address, is_verified: true, used_for_auth: true }]);
      // The new address signs in.
      await patchUser(project, user.id, { password: "a password" });
      expect((await signInWithPassword(project, address, "a password")).status).toBe(200);
    });

    it("keeps an unverified email unverified, unless the server says otherwise", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project, { primary_email: email() });
      expect((await patchUser(project, user.id, { primary_email: email() })).body.primary_email_verified).toBe(false);
      expect((await patchUser(project, user.id, { primary_email: email(), primary_email_verified: true })).body.primary_email_verified).toBe(true);
      expect((await patchUser(project, user.id, { primary_email: email(), primary_email_verified: false })).body.primary_email_verified).toBe(false);
    });
  });
});
