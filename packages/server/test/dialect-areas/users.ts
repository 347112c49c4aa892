import { accessTokenPayloadSchema } from "@stackframe/stack-shared-2.8.108/dist/schema-fields";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { createUser } from "../../src/services/users.js";
import { api, expectProtocolInvariants, type ApiResponse } from "../support/api.js";
import { stackSdk } from "../support/stack-sdk.js";
import { createTestProject, type TestProject } from "../support/test-server.js";
import { CLIENT_READ_KEYS, SERVER_READ_KEYS, server } from "../support/users-fixture.js";

// Issue 14, users: a 2.8.108 request (x-hexclave-* headers) reads and writes the restricted-user, country and
// risk fields its SDK knows; a 2.8.41 request (x-stack-*) never sees them and cannot send them. Access tokens
// issued to 2.8.108 requests (and to the token endpoint, which names no version) carry 2.8.108's claims, which
// its SDK validates before storing a token.
describe("users in each dialect", () => {
  type Dialect = "2.8.41" | "2.8.108";
  const DIALECTS: readonly Dialect[] = ["2.8.41", "2.8.108"];
  const PREFIX: Record<Dialect, string> = { "2.8.41": "x-stack-", "2.8.108": "x-hexclave-" };

  interface Call {
    method?: string;
    body?: unknown;
    /** The signed-in user's access token. */
    token?: string;
    /** Which allow-*-user header to send (under the dialect's prefix). */
    allow?: "anonymous-user" | "restricted-user";
  }

  /** A request in one dialect: the project's keys under that dialect's header prefix. */
  function call(project: TestProject, access: "client" | "server" | "admin", dialect: Dialect, path: string, request: Call = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(project.headers(access))) headers[name.replace(/^x-stack-/, PREFIX[dialect])] = value;
    if (request.token) headers[`${PREFIX[dialect]}access-token`] = request.token;
    if (request.allow) headers[`${PREFIX[dialect]}allow-${request.allow}`] = "true";
    return api(server.url, path, { method: request.method, body: request.body, headers });
  }

  const email = () => `user-${crypto.randomUUID()}@example.com`;

  async function createUser(project: TestProject, body: Record<string, unknown> = {}, dialect: Dialect = "2.8.41"): Promise<any> {
    const response = await call(project, "server", dialect, "/users", { method: "POST", body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body;
  }

  /** Signs a user in over HTTP, as a 2.8.108 server does (`POST /auth/sessions`): its tokens carry 2.8.108's claims. */
  async function signIn(project: TestProject, userId: string): Promise<{ access_token: string; refresh_token: string }> {
    const response = await call(project, "server", "2.8.108", "/auth/sessions", { method: "POST", body: { user_id: userId } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  }

  /** The OAuth token endpoint's refresh grant, as both SDKs send it: a form body and no protocol headers. */
  async function refreshAccessToken(project: TestProject, refreshToken: string): Promise<string> {
    const response = await fetch(`${server.url}/api/v1/auth/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded;charset=UTF-8", accept: "application/json" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: project.projectId, client_secret: project.publishableClientKey }),
    });
    const body = await response.json();
    expectProtocolInvariants(response, body);
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body.access_token;
  }

  async function requireEmailVerification(project: TestProject, value: boolean) {
    const response = await call(project, "admin", "2.8.108", "/internal/projects/current", { method: "PATCH", body: { config: { require_email_verification: value } } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  }

  const NEWER_CLIENT_KEYS = ["is_restricted", "restricted_by_admin", "restricted_by_admin_reason", "restricted_reason"];
  const NEWER_SERVER_KEYS = [...NEWER_CLIENT_KEYS, "country_code", "restricted_by_admin_private_details", "risk_scores"];
  const keysOf = (value: object) => Object.keys(value).sort();

  describe("user objects in each dialect", () => {
    it("have exactly the fields of the request's SDK version, for clients and servers", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project, { primary_email: email(), primary_email_verified: true });
      const { access_token } = await signIn(project, user.id);
      const expected: Record<Dialect, { client: string[]; server: string[] }> = {
        "2.8.41": { client: [...CLIENT_READ_KEYS].sort(), server: [...SERVER_READ_KEYS].sort() },
        "2.8.108": { client: [...CLIENT_READ_KEYS, ...NEWER_CLIENT_KEYS].sort(), server: [...SERVER_READ_KEYS, ...NEWER_SERVER_KEYS].sort() },
      };
      for (const dialect of DIALECTS) {
        const me = await call(project, "client", dialect, "/users/me", { token: access_token });
        expect(me.status).toBe(200);
        expect(keysOf(me.body), dialect).toEqual(expected[dialect].client);
        const serverMe = await call(project, "server", dialect, "/users/me", { token: access_token });
        expect(keysOf(serverMe.body), dialect).toEqual(expected[dialect].server);
        const byId = await call(project, "server", dialect, `/users/${user.id}`);
        expect(keysOf(byId.body), dialect).toEqual(expected[dialect].server);
        const list = await call(project, "server", dialect, "/users");
        expect(list.body.items.length).toBeGreaterThan(0);
        for (const item of list.body.items) expect(keysOf(item), dialect).toEqual(expected[dialect].server);
        const created = await call(project, "server", dialect, "/users", { method: "POST", body: {} });
        expect(keysOf(created.body), dialect).toEqual(expected[dialect].server);
      }
      const newer = await call(project, "server", "2.8.108", `/users/${user.id}`);
      expect(newer.body).toMatchObject({
        is_restricted: false,
        restricted_reason: null,
        restricted_by_admin: false,
        restricted_by_admin_reason: null,
        restricted_by_admin_private_details: null,
        country_code: null,
        risk_scores: { sign_up: { bot: 0, free_trial_abuse: 0 } },
      });
    });

    it("are read in the 2.8.108 shape inside team member profiles too", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project, { display_name: "Member" });
      const team = await call(project, "server", "2.8.41", "/teams", { method: "POST", body: { display_name: "Team", creator_user_id: user.id } });
      expect(team.status, JSON.stringify(team.body)).toBe(201);
      for (const dialect of DIALECTS) {
        const profiles = await call(project, "server", dialect, `/team-member-profiles?team_id=${team.body.id}`);
        expect(profiles.status, JSON.stringify(profiles.body)).toBe(200);
        const keys = keysOf(profiles.body.items[0].user);
        expect(keys.includes("risk_scores"), dialect).toBe(dialect === "2.8.108");
      }
    });
  });

  describe("the 2.8.108 write fields", () => {
    it("are refused as unknown properties in 2.8.41 requests", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project, { primary_email: email() });
      const { access_token } = await signIn(project, user.id);
      for (const [path, method, access, body] of [
        [`/users/${user.id}`, "PATCH", "server", { restricted_by_admin: true }],
        ["/users", "POST", "server", { country_code: "US", risk_scores: { sign_up: { bot: 1, free_trial_abuse: 2 } } }],
        ["/users/me", "PATCH", "client", { primary_email: email() }],
      ] as const) {
        const response = await call(project, access, "2.8.41", path, { method, body, token: access_token });
        expect(response.status, path).toBe(400);
        expect(response.body.code).toBe("SCHEMA_ERROR");
        expect(response.body.error).toBe(`Request validation failed on ${method} /api/v1${path}:\n  - body contains unknown properties: ${Object.keys(body).join(", ")}`);
      }
      const config = await call(project, "admin", "2.8.41", "/internal/projects/current", { method: "PATCH", body: { config: { require_email_verification: true } } });
      expect(config.body.error).toBe(
        "Request validation failed on PATCH /api/v1/internal/projects/current:\n  - body.config contains unknown properties: require_email_verification",
      );
      const list = await call(project, "server", "2.8.41", "/users?include_restricted=true&only_anonymous=false");
      expect(list.body.error).toBe("Request validation failed on GET /api/v1/users:\n  - query contains unknown properties: include_restricted, only_anonymous");
    });

    it("create and update a user's restriction, country and risk scores", async () => {
      const project = await createTestProject(server);
      const created = await createUser(project, { country_code: " de ", risk_scores: { sign_up: { bot: 12, free_trial_abuse: 34 } } }, "2.8.108");
      expect(created).toMatchObject({ country_code: "DE", risk_scores: { sign_up: { bot: 12, free_trial_abuse: 34 } }, is_restricted: false });

      const restricted = await call(project, "server", "2.8.108", `/users/${created.id}`, {
        method: "PATCH",
        body: { restricted_by_admin: true, restricted_by_admin_reason: "Under review", restricted_by_admin_private_details: "rule 7", country_code: "fr" },
      });
      expect(restricted.status, JSON.stringify(restricted.body)).toBe(200);
      expect(restricted.body).toMatchObject({
        is_restricted: true,
        restricted_reason: { type: "restricted_by_administrator" },
        restricted_by_admin: true,
        restricted_by_admin_reason: "Under review",
        restricted_by_admin_private_details: "rule 7",
        country_code: "FR",
      });

      // Lifting the restriction drops its reason and details.
      const lifted = await call(project, "server", "2.8.108", `/users/${created.id}`, { method: "PATCH", body: { restricted_by_admin: false, country_code: null } });
      expect(lifted.body).toMatchObject({
        is_restricted: false,
        restricted_reason: null,
        restricted_by_admin: false,
        restricted_by_admin_reason: null,
        restricted_by_admin_private_details: null,
        country_code: null,
      });
    });

    it("refuse a reason or details without restricted_by_admin: true, in the protocol's words", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project);
      for (const [field, extra] of [
        ["restricted_by_admin_reason", {}],
        ["restricted_by_admin_private_details", { restricted_by_admin: false }],
      ] as const) {
        const response = await call(project, "server", "2.8.108", `/users/${user.id}`, { method: "PATCH", body: { ...extra, [field]: "why" } });
        expect(response.status).toBe(400);
        expect(response.body.error).toBe(`Request validation failed on PATCH /api/v1/users/${user.id}:\n  - ${field} must be null when restricted_by_admin is not true`);
      }
      const created = await call(project, "server", "2.8.108", "/users", { method: "POST", body: { restricted_by_admin_reason: "why" } });
      expect(created.body.error).toBe("Request validation failed on POST /api/v1/users:\n  - restricted_by_admin_reason must be null when restricted_by_admin is not true");
    });

    it("refuse a country code that is not two letters and risk scores outside 0–100", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project);
      const patch = (body: unknown) => call(project, "server", "2.8.108", `/users/${user.id}`, { method: "PATCH", body });
      const prefix = `Request validation failed on PATCH /api/v1/users/${user.id}:\n  - `;
      expect((await patch({ country_code: "usa" })).body.error).toBe(`${prefix}body.country_code must be a 2-letter country code`);
      expect((await patch({ risk_scores: { sign_up: { bot: 101, free_trial_abuse: 0 } } })).body.error).toBe(
        `${prefix}body.risk_scores.sign_up.bot must be less than or equal to 100`,
      );
      expect((await patch({ risk_scores: { sign_up: { bot: 1.5, free_trial_abuse: 0 } } })).body.error).toBe(`${prefix}body.risk_scores.sign_up.bot must be an integer`);
      expect((await patch({ risk_scores: { sign_up: { bot: 1 } } })).body.error).toBe(`${prefix}body.risk_scores.sign_up.free_trial_abuse must be defined`);
    });
  });

  describe("restricted users", () => {
    it("are refused without an allow header: RESTRICTED_USER_NOT_ALLOWED in 2.8.108, ANONYMOUS_AUTHENTICATION_NOT_ALLOWED in 2.8.41", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project, { primary_email: email(), restricted_by_admin: true, restricted_by_admin_reason: "Spam" }, "2.8.108");
      const { access_token } = await signIn(project, user.id);

      const newer = await call(project, "client", "2.8.108", "/users/me", { token: access_token });
      expect(newer.status).toBe(403);
      expect(newer.body).toEqual({
        code: "RESTRICTED_USER_NOT_ALLOWED",
        details: { restricted_reason: { type: "restricted_by_administrator" } },
        error: expect.stringContaining("Reason: restricted_by_administrator."),
      });
      expect(newer.headers.get("x-hexclave-known-error")).toBe("RESTRICTED_USER_NOT_ALLOWED");

      const older = await call(project, "client", "2.8.41", "/users/me", { token: access_token });
      expect(older.status).toBe(401);
      expect(older.body.code).toBe("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED");
      // Server calls with the user's token are judged the same way.
      expect((await call(project, "server", "2.8.108", "/users/me", { token: access_token })).body.code).toBe("RESTRICTED_USER_NOT_ALLOWED");
    });

    it("are let through by allow-restricted-user or allow-anonymous-user, and read themselves as restricted", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project, { primary_email: email(), restricted_by_admin: true, restricted_by_admin_reason: "Spam", restricted_by_admin_private_details: "secret" }, "2.8.108");
      const { access_token } = await signIn(project, user.id);
      for (const allow of ["restricted-user", "anonymous-user"] as const) {
        const me = await call(project, "client", "2.8.108", "/users/me", { token: access_token, allow });
        expect(me.status, allow).toBe(200);
        expect(me.body).toMatchObject({ id: user.id, is_restricted: true, restricted_reason: { type: "restricted_by_administrator" }, restricted_by_admin: true, restricted_by_admin_reason: "Spam" });
        expect(me.body).not.toHaveProperty("restricted_by_admin_private_details");
      }
      const older = await call(project, "client", "2.8.41", "/users/me", { token: access_token, allow: "anonymous-user" });
      expect(older.status).toBe(200);
      expect(older.body).not.toHaveProperty("is_restricted");
    });

    it("include users without a verified primary email once the project requires verification, until they verify", async () => {
      const project = await createTestProject(server);
      const unverified = await createUser(project, { primary_email: email(), primary_email_auth_enabled: true });
      const verified = await createUser(project, { primary_email: email(), primary_email_verified: true });
      const withoutEmail = await createUser(project);
      const read = async (id: string) => (await call(project, "server", "2.8.108", `/users/${id}`)).body;
      expect((await read(unverified.id)).is_restricted).toBe(false);

      await requireEmailVerification(project, true);
      expect(await read(unverified.id)).toMatchObject({ is_restricted: true, restricted_reason: { type: "email_not_verified" } });
      expect(await read(withoutEmail.id)).toMatchObject({ is_restricted: true, restricted_reason: { type: "email_not_verified" } });
      expect(await read(verified.id)).toMatchObject({ is_restricted: false, restricted_reason: null });
      const config = await call(project, "admin", "2.8.108", "/internal/config");
      expect(JSON.parse(config.body.config_string).onboarding).toEqual({ requireEmailVerification: true });

      const tokens = await signIn(project, unverified.id);
      expect(decodeJwt(tokens.access_token)).toMatchObject({ is_restricted: true, restricted_reason: { type: "email_not_verified" } });
      expect((await call(project, "client", "2.8.108", "/users/me", { token: tokens.access_token })).body.code).toBe("RESTRICTED_USER_NOT_ALLOWED");

      // Verified: let in at once with the same token, and the next token says so.
      await call(project, "server", "2.8.108", `/users/${unverified.id}`, { method: "PATCH", body: { primary_email_verified: true } });
      const me = await call(project, "client", "2.8.108", "/users/me", { token: tokens.access_token });
      expect(me.status).toBe(200);
      expect(me.body.is_restricted).toBe(false);
      const refreshed = decodeJwt(await refreshAccessToken(project, tokens.refresh_token));
      expect(refreshed).toMatchObject({ is_restricted: false, restricted_reason: null, email_verified: true });

      // An administrator's restriction is reported before an unverified email.
      const both = await createUser(project, { primary_email: email(), restricted_by_admin: true }, "2.8.108");
      expect((await read(both.id)).restricted_reason).toEqual({ type: "restricted_by_administrator" });

      await requireEmailVerification(project, false);
      expect((await read(withoutEmail.id)).is_restricted).toBe(false);
    });

    it("are anonymous users too, with the reason anonymous", async () => {
      const project = await createTestProject(server);
      const signUp = await call(project, "client", "2.8.108", "/auth/anonymous/sign-up", { method: "POST" });
      expect(signUp.status, JSON.stringify(signUp.body)).toBe(200);
      const me = await call(project, "client", "2.8.108", "/users/me", { token: signUp.body.access_token, allow: "anonymous-user" });
      expect(me.body).toMatchObject({ is_anonymous: true, is_restricted: true, restricted_reason: { type: "anonymous" } });
      const claims = accessTokenPayloadSchema.validateSync(decodeJwt(signUp.body.access_token));
      expect(claims).toMatchObject({ is_anonymous: true, is_restricted: true, restricted_reason: { type: "anonymous" } });
      // allow-restricted-user does not stand for allow-anonymous-user.
      const refused = await call(project, "client", "2.8.108", "/users/me", { token: signUp.body.access_token, allow: "restricted-user" });
      expect(refused.body.code).toBe("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED");
    });
  });

  describe("changing one's own primary email (2.8.108 client)", () => {
    it("sets a new, unverified primary email that keeps signing in", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project, { primary_email: email(), primary_email_verified: true, primary_email_auth_enabled: true });
      const { access_token } = await signIn(project, user.id);
      const address = email();
      const changed = await call(project, "client", "2.8.108", "/users/me", { method: "PATCH", body: { primary_email: address }, token: access_token });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body).toMatchObject({ primary_email: address, primary_email_verified: false });
      const read = await call(project, "server", "2.8.108", `/users/${user.id}`);
      expect(read.body).toMatchObject({ primary_email: address, primary_email_verified: false, primary_email_auth_enabled: true });
    });

    it("refuses an address another account signs in with", async () => {
      const project = await createTestProject(server);
      const taken = email();
      await createUser(project, { primary_email: taken, primary_email_auth_enabled: true });
      const user = await createUser(project, { primary_email: email(), primary_email_auth_enabled: true });
      const { access_token } = await signIn(project, user.id);
      const response = await call(project, "client", "2.8.108", "/users/me", { method: "PATCH", body: { primary_email: taken }, token: access_token });
      expect(response.status).toBe(409);
      expect(response.body.code).toBe("USER_EMAIL_ALREADY_EXISTS");
    });

    it("lets a user restricted for an unverified email replace it (the onboarding step)", async () => {
      const project = await createTestProject(server);
      await requireEmailVerification(project, true);
      const user = await createUser(project);
      const { access_token } = await signIn(project, user.id);
      const address = email();
      const changed = await call(project, "client", "2.8.108", "/users/me", { method: "PATCH", body: { primary_email: address }, token: access_token, allow: "anonymous-user" });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body).toMatchObject({ primary_email: address, primary_email_verified: false, is_restricted: true, restricted_reason: { type: "email_not_verified" } });
    });
  });

  describe("GET /users in each dialect", () => {
    it("leaves out restricted and anonymous users in 2.8.108 unless asked, and lists everyone non-anonymous in 2.8.41", async () => {
      const project = await createTestProject(server);
      await requireEmailVerification(project, true);
      const regular = await createUser(project, { primary_email: email(), primary_email_verified: true });
      const byAdmin = await createUser(project, { primary_email: email(), primary_email_verified: true, restricted_by_admin: true }, "2.8.108");
      const unverified = await createUser(project, { primary_email: email() });
      const anonymous = await createUser(project, { is_anonymous: true });
      const ids = async (dialect: Dialect, query = "") => {
        const response = await call(project, "server", dialect, `/users${query}`);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        return response.body.items.map((item: { id: string }) => item.id).sort();
      };
      const sorted = (...users: { id: string }[]) => users.map((u) => u.id).sort();

      expect(await ids("2.8.108")).toEqual(sorted(regular));
      expect(await ids("2.8.108", "?include_restricted=false")).toEqual(sorted(regular));
      expect(await ids("2.8.108", "?include_restricted=true")).toEqual(sorted(regular, byAdmin, unverified));
      expect(await ids("2.8.108", "?include_anonymous=true")).toEqual(sorted(regular, byAdmin, unverified, anonymous));
      expect(await ids("2.8.108", "?include_anonymous=true&only_anonymous=true")).toEqual(sorted(anonymous));
      expect(await ids("2.8.41")).toEqual(sorted(regular, byAdmin, unverified));
      expect(await ids("2.8.41", "?include_anonymous=true")).toEqual(sorted(regular, byAdmin, unverified, anonymous));
    });

    it("orders by last activity when asked", async () => {
      const project = await createTestProject(server);
      const [first, second, third] = [await createUser(project), await createUser(project), await createUser(project)];
      // Most recently active: first, then third, then second.
      const at = (userId: string, millis: number) => server.db.updateTable("users").set({ last_active_at: new Date(millis) }).where("id", "=", userId).execute();
      await at(second.id, 1_000_000);
      await at(third.id, 2_000_000);
      await at(first.id, 3_000_000);
      const page1 = await call(project, "server", "2.8.108", "/users?order_by=last_active_at&desc=true&limit=2");
      expect(page1.body.items.map((u: { id: string }) => u.id)).toEqual([first.id, third.id]);
      const page2 = await call(project, "server", "2.8.108", `/users?order_by=last_active_at&desc=true&limit=2&cursor=${page1.body.pagination.next_cursor}`);
      expect(page2.body.items.map((u: { id: string }) => u.id)).toEqual([second.id]);
      expect(page2.body.pagination.next_cursor).toBeNull();
    });
  });

  describe("access tokens", () => {
    it("carry the 2.8.108 claims, which its SDK's own schema accepts, on sign-in and on refresh", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project, { primary_email: email(), primary_email_verified: true, display_name: "Ada" });
      const tokens = await signIn(project, user.id);
      for (const token of [tokens.access_token, await refreshAccessToken(project, tokens.refresh_token)]) {
        const payload = decodeJwt(token);
        const claims = accessTokenPayloadSchema.validateSync(payload);
        expect(claims).toMatchObject({
          sub: user.id,
          name: "Ada",
          email_verified: true,
          is_anonymous: false,
          is_restricted: false,
          restricted_reason: null,
          requires_totp_mfa: false,
          signed_up_at: Math.floor(user.signed_up_at_millis / 1000),
        });
      }
    });

    it("say when the user has TOTP multi-factor authentication", async () => {
      const project = await createTestProject(server);
      const user = await createUser(project, { totp_secret_base64: Buffer.alloc(20, 7).toString("base64") });
      const { access_token } = await signIn(project, user.id);
      expect(accessTokenPayloadSchema.validateSync(decodeJwt(access_token)).requires_totp_mfa).toBe(true);
    });
  });
  describe("the onboarding preview (2.8.108's previewAffectedUsersByOnboardingChange)", () => {
    it("lists the users a required email verification would hold back, and changes nothing", async () => {
      const project = await createTestProject(server);
      const verified = await createUser(project, { primary_email: email(), primary_email_verified: true, display_name: "Verified" });
      const unverified = await createUser(project, { primary_email: email(), display_name: "Unverified" });
      const noEmail = await createUser(project, { display_name: "No email" });
      await createUser(project, { primary_email: email(), restricted_by_admin: true }, "2.8.108");
      await createUser(project, { is_anonymous: true }, "2.8.108");
      const admin: any = stackSdk(server, project, "2.8.108").admin();
      const preview = await admin.previewAffectedUsersByOnboardingChange({ requireEmailVerification: true });
      expect(preview.totalAffectedCount).toBe(2);
      expect(preview.affectedUsers).toEqual([
        { id: unverified.id, displayName: "Unverified", primaryEmail: unverified.primary_email, restrictedReason: { type: "email_not_verified" } },
        { id: noEmail.id, displayName: "No email", primaryEmail: null, restrictedReason: { type: "email_not_verified" } },
      ]);
      expect(preview.affectedUsers.map((u: { id: string }) => u.id)).not.toContain(verified.id);
      const first = await admin.previewAffectedUsersByOnboardingChange({ requireEmailVerification: true }, 1);
      expect([first.affectedUsers.length, first.totalAffectedCount]).toEqual([1, 2]);
      // A preview changes nothing: the unverified user is still let in; once the setting is on, no one more is affected.
      expect((await call(project, "server", "2.8.108", `/users/${unverified.id}`)).body.is_restricted).toBe(false);
      await requireEmailVerification(project, true);
      expect((await admin.previewAffectedUsersByOnboardingChange({ requireEmailVerification: true })).totalAffectedCount).toBe(0);
      expect((await admin.previewAffectedUsersByOnboardingChange({ requireEmailVerification: false })).totalAffectedCount).toBe(0);
    });
  });
});
