import { gzipSync } from "node:zlib";
import { accessTokenPayloadSchema } from "@stackframe/stack-shared-2.8.108/dist/schema-fields";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { WELL_KNOWN_DEV_KEYS } from "../src/env.js";
import { ANALYTICS_RETENTION_MS, deleteExpiredAnalyticsEvents } from "../src/services/analytics-events.js";
import { findProject } from "../src/services/projects.js";
import { signInUser } from "../src/services/sessions.js";
import { createUser } from "../src/services/users.js";
import { api, expectProtocolInvariants, type ApiResponse } from "./support/api.js";
import * as emailFlow from "./support/email-flow-fixture.js";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { CLIENT_READ_KEYS, SERVER_READ_KEYS, server, useServerForFile } from "./support/users-fixture.js";

// One server for the file; the team invitations section starts its own, with an SMTP capture.
useServerForFile();

// Issue 14, users: a 2.8.108 request (x-hexclave-* headers) reads and writes the restricted-user, country and
// risk fields its SDK knows; a 2.8.41 request (x-stack-*) never sees them and cannot send them. Every access
// token carries 2.8.108's claims, which its SDK validates before storing a token.
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

  /** Signs a user in over HTTP, as a server does (`POST /auth/sessions`). */
  async function signIn(project: TestProject, userId: string): Promise<{ access_token: string; refresh_token: string }> {
    const response = await call(project, "server", "2.8.41", "/auth/sessions", { method: "POST", body: { user_id: userId } });
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
});

// Issue 14: the project reads in each protocol version. 2.8.108 clients read the trusted domains from the
// client view (its SDK dereferences `config.domains`) and a few more admin fields, one of them renamed.
describe("projects in each dialect", () => {
  type Dialect = "2.8.41" | "2.8.108";
  type Access = "client" | "server" | "admin";

  /** The project's headers in the version's prefix. */
  function headersIn(dialect: Dialect, headers: Record<string, string>): Record<string, string> {
    if (dialect === "2.8.41") return headers;
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.replace(/^x-stack-/, "x-hexclave-"), value]));
  }

  function call(dialect: Dialect, project: TestProject, access: Access, path: string, request: { method?: string; body?: unknown } = {}): Promise<ApiResponse> {
    return api(server.url, path, { ...request, headers: headersIn(dialect, project.headers(access)) });
  }

  const CLIENT_CONFIG_KEYS_41 = [
    "sign_up_enabled", "credential_enabled", "magic_link_enabled", "passkey_enabled", "client_team_creation_enabled",
    "client_user_deletion_enabled", "allow_user_api_keys", "allow_team_api_keys", "enabled_oauth_providers",
  ];
  const ADMIN_KEYS_41 = ["id", "display_name", "description", "logo_url", "full_logo_url", "created_at_millis", "is_production_mode", "owner_team_id", "config"];
  const ADMIN_KEYS_108 = [
    "id", "display_name", "description", "logo_url", "logo_full_url", "logo_dark_mode_url", "logo_full_dark_mode_url", "created_at_millis",
    "is_production_mode", "is_development_environment", "owner_team_id", "onboarding_status", "config",
  ];
  const ADMIN_CONFIG_KEYS = [
    "allow_localhost", "sign_up_enabled", "credential_enabled", "magic_link_enabled", "passkey_enabled", "client_team_creation_enabled",
    "client_user_deletion_enabled", "allow_user_api_keys", "allow_team_api_keys", "enabled_oauth_providers", "oauth_providers", "domains",
    "email_config", "email_theme", "create_team_on_sign_up", "team_creator_default_permissions", "team_member_default_permissions",
    "user_default_permissions", "oauth_account_merge_strategy",
  ];
  const DOMAINS = [
    { domain: "https://app.example.com", handler_path: "/handler" },
    { domain: "https://*.example.org", handler_path: "/auth" },
  ];

  async function projectWithDomains(): Promise<TestProject> {
    const project = await createTestProject(server);
    const updated = await call("2.8.41", project, "admin", "/internal/projects/current", { method: "PATCH", body: { config: { domains: DOMAINS, allow_localhost: false } } });
    expect(updated.status, updated.text).toBe(200);
    return project;
  }

  describe("the client's project read", () => {
    it("gives 2.8.108 the trusted domains and whether localhost is allowed, and 2.8.41 exactly what it had", async () => {
      const project = await projectWithDomains();
      const older = await call("2.8.41", project, "client", "/projects/current");
      expect(older.status).toBe(200);
      expect(Object.keys(older.body)).toEqual(["id", "display_name", "config"]);
      expect(Object.keys(older.body.config)).toEqual(CLIENT_CONFIG_KEYS_41);

      const newer = await call("2.8.108", project, "client", "/projects/current");
      expect(newer.status).toBe(200);
      expect(Object.keys(newer.body.config)).toEqual([
        "sign_up_enabled", "credential_enabled", "magic_link_enabled", "passkey_enabled", "client_team_creation_enabled",
        "client_user_deletion_enabled", "allow_localhost", "allow_user_api_keys", "allow_team_api_keys", "enabled_oauth_providers", "domains",
      ]);
      expect(newer.body.config.allow_localhost).toBe(false);
      // Sorted by domain, as the admin view lists them.
      expect(newer.body.config.domains).toEqual([DOMAINS[1], DOMAINS[0]]);
      const { allow_localhost: _allowLocalhost, domains: _domains, ...rest } = newer.body.config;
      expect(rest).toEqual(older.body.config);
    });

    it("lists no domains for a new project, which allows localhost", async () => {
      const project = await createTestProject(server);
      const newer = await call("2.8.108", project, "client", "/projects/current");
      expect(newer.body.config).toMatchObject({ allow_localhost: true, domains: [] });
    });
  });

  describe("the admin's project read", () => {
    it("has the 2.8.108 fields, with the full logo under its new name, only for 2.8.108", async () => {
      const project = await projectWithDomains();
      const older = await call("2.8.41", project, "admin", "/internal/projects/current");
      expect(Object.keys(older.body)).toEqual(ADMIN_KEYS_41);
      // The domains keep their place in the legacy config, though the client view now lists them too.
      expect(Object.keys(older.body.config)).toEqual(ADMIN_CONFIG_KEYS);

      const newer = await call("2.8.108", project, "admin", "/internal/projects/current");
      expect(Object.keys(newer.body)).toEqual(ADMIN_KEYS_108);
      expect(newer.body).toMatchObject({
        logo_full_url: null,
        logo_dark_mode_url: null,
        logo_full_dark_mode_url: null,
        is_development_environment: false,
        onboarding_status: "completed",
      });
      expect(Object.keys(newer.body.config)).toEqual(ADMIN_CONFIG_KEYS);
      expect(newer.body.config).toEqual(older.body.config);
    });

    it("stores the logos 2.8.108 sends, and shows the full logo to 2.8.41 under its old name", async () => {
      const project = await createTestProject(server);
      const logos = {
        logo_full_url: "https://cdn.example.com/full.png",
        logo_dark_mode_url: "https://cdn.example.com/dark.png",
        logo_full_dark_mode_url: "https://cdn.example.com/full-dark.png",
        onboarding_status: "welcome",
      };
      const updated = await call("2.8.108", project, "admin", "/internal/projects/current", { method: "PATCH", body: logos });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body).toMatchObject(logos);

      const older = await call("2.8.41", project, "admin", "/internal/projects/current");
      expect(older.body.full_logo_url).toBe(logos.logo_full_url);
      expect(Object.keys(older.body)).toEqual(ADMIN_KEYS_41);

      const renamedBack = await call("2.8.41", project, "admin", "/internal/projects/current", { method: "PATCH", body: { full_logo_url: null } });
      expect(renamedBack.body.full_logo_url).toBeNull();
      expect((await call("2.8.108", project, "admin", "/internal/projects/current")).body).toMatchObject({ ...logos, logo_full_url: null });
    });

    it("refuses each version's name of the full logo in the other version's requests", async () => {
      const project = await createTestProject(server);
      const url = "https://cdn.example.com/full.png";
      const older = await call("2.8.41", project, "admin", "/internal/projects/current", { method: "PATCH", body: { logo_full_url: url, onboarding_status: "completed" } });
      expect(older.status).toBe(400);
      expect(older.body.error).toBe("Request validation failed on PATCH /api/v1/internal/projects/current:\n  - body contains unknown properties: logo_full_url, onboarding_status");
      const newer = await call("2.8.108", project, "admin", "/internal/projects/current", { method: "PATCH", body: { full_logo_url: url } });
      expect(newer.status).toBe(400);
      expect(newer.body.error).toContain("body contains unknown properties: full_logo_url");
    });

    it("refuses an onboarding status the protocol does not have", async () => {
      const project = await createTestProject(server);
      const answer = await call("2.8.108", project, "admin", "/internal/projects/current", { method: "PATCH", body: { onboarding_status: "done" } });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toContain("body.onboarding_status must be one of the following values: config_choice");
    });
  });

  describe("creating a project (internal project's users)", () => {
    /** A signed-in user of the internal project (a dashboard user), with the personal team it gets. */
    async function internalUser() {
      const internal = await findProject(server.db, "internal");
      const user = await createUser(server.db, internal!, { primaryEmail: `owner-${crypto.randomUUID()}@example.com`, primaryEmailVerified: true });
      const tokens = await signInUser(server.db, server.env, { projectId: "internal", userId: user.id });
      return { teamId: user.selected_team_id!, accessToken: tokens.access_token };
    }
    const asUser = (dialect: Dialect, user: { accessToken: string }) =>
      headersIn(dialect, {
        "x-stack-project-id": "internal",
        "x-stack-access-type": "client",
        "x-stack-publishable-client-key": WELL_KNOWN_DEV_KEYS.publishableClientKey,
        "x-stack-access-token": user.accessToken,
      });
    const create = (dialect: Dialect, user: { teamId: string; accessToken: string }, body: Record<string, unknown>) =>
      api(server.url, "/internal/projects", { headers: asUser(dialect, user), body: { display_name: "My app", owner_team_id: user.teamId, ...body } });

    it("keeps whether 2.8.108 created it as a development environment, with its logos", async () => {
      const user = await internalUser();
      const created = await create("2.8.108", user, { is_development_environment: true, logo_full_url: "https://cdn.example.com/f.png", logo_dark_mode_url: "https://cdn.example.com/d.png" });
      expect(created.status, created.text).toBe(201);
      expect(Object.keys(created.body)).toEqual(ADMIN_KEYS_108);
      expect(created.body).toMatchObject({ is_development_environment: true, onboarding_status: "completed", logo_full_url: "https://cdn.example.com/f.png", logo_dark_mode_url: "https://cdn.example.com/d.png" });

      const older = await create("2.8.41", user, { full_logo_url: "https://cdn.example.com/old.png" });
      expect(older.status, older.text).toBe(201);
      expect(Object.keys(older.body)).toEqual(ADMIN_KEYS_41);
      expect(older.body.full_logo_url).toBe("https://cdn.example.com/old.png");

      for (const [dialect, keys] of [["2.8.41", ADMIN_KEYS_41], ["2.8.108", ADMIN_KEYS_108]] as const) {
        const listed = await api(server.url, "/internal/projects", { headers: asUser(dialect, user) });
        expect(listed.body.items.map((item: object) => Object.keys(item))).toEqual([keys, keys]);
      }
    });

    it("refuses is_development_environment from 2.8.41, which does not have it", async () => {
      const user = await internalUser();
      const created = await create("2.8.41", user, { is_development_environment: true });
      expect(created.status).toBe(400);
      expect(created.body.error).toContain("body contains unknown properties: is_development_environment");
    });
  });
});

// Issue 14: team invitations in each protocol version. 2.8.108 lists the invitations a user received (those
// addressed to their verified emails) and accepts them by id; its invitation reads name the team.
describe("team invitations in each dialect", () => {
  const { email, emailProject, useServerAndSmtpForFile } = emailFlow;
  useServerAndSmtpForFile();

  type Dialect = "2.8.41" | "2.8.108";
  interface Person {
    id: string;
    address: string;
    accessToken: string;
  }

  const INVITATION_PAGE = "https://app.example.com/handler/team-invitation";

  function request(dialect: Dialect, project: TestProject, access: "client" | "server", path: string, options: { method?: string; body?: unknown; as?: Person; anonymous?: boolean } = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...project.headers(access), ...(options.as ? { "x-stack-access-token": options.as.accessToken } : {}) };
    if (options.anonymous) headers["x-stack-allow-anonymous-user"] = "true";
    const prefixed = dialect === "2.8.41" ? headers : Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.replace(/^x-stack-/, "x-hexclave-"), value]));
    return api(emailFlow.server.url, path, { method: options.method, body: options.body, headers: prefixed });
  }

  /** A user whose primary email is verified (or not), signed in. */
  async function person(project: TestProject, verified = true): Promise<Person> {
    const address = email();
    const created = await request("2.8.41", project, "server", "/users", {
      method: "POST",
      body: { primary_email: address, primary_email_verified: verified, primary_email_auth_enabled: true },
    });
    expect(created.status, created.text).toBe(201);
    const tokens = await signInUser(emailFlow.server.db, emailFlow.server.env, { projectId: project.projectId, userId: created.body.id });
    return { id: created.body.id, address, accessToken: tokens.access_token };
  }

  async function team(project: TestProject, name: string): Promise<string> {
    const created = await request("2.8.41", project, "server", "/teams", { method: "POST", body: { display_name: name } });
    expect(created.status, created.text).toBe(201);
    return created.body.id;
  }

  async function invite(project: TestProject, teamId: string, to: string): Promise<string> {
    const sent = await request("2.8.41", project, "server", "/team-invitations/send-code", { method: "POST", body: { team_id: teamId, email: to, callback_url: INVITATION_PAGE } });
    expect(sent.status, sent.text).toBe(200);
    await emailFlow.smtp.nextMessage(to);
    return sent.body.id;
  }

  const members = async (teamId: string) => (await emailFlow.server.db.selectFrom("team_members").select("user_id").where("team_id", "=", teamId).execute()).map((m) => m.user_id);

  describe("a team's invitations", () => {
    it("name the team for 2.8.108, and read as before for 2.8.41", async () => {
      const project = await emailProject();
      const teamId = await team(project, "Rocket Team");
      const address = email();
      const id = await invite(project, teamId, address);
      const older = await request("2.8.41", project, "server", `/team-invitations?team_id=${teamId}`);
      expect(older.body.items).toEqual([{ id, team_id: teamId, expires_at_millis: expect.any(Number), recipient_email: address }]);
      expect(Object.keys(older.body.items[0])).toEqual(["id", "team_id", "expires_at_millis", "recipient_email"]);
      const newer = await request("2.8.108", project, "server", `/team-invitations?team_id=${teamId}`);
      expect(newer.body.items).toEqual([{ ...older.body.items[0], team_display_name: "Rocket Team" }]);
    });

    it("still answers 2.8.41 without team_id as before, the missing field ahead of unknown ones", async () => {
      const project = await emailProject();
      const missing = await request("2.8.41", project, "server", "/team-invitations?extra=1");
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe("Request validation failed on GET /api/v1/team-invitations:\n  - query.team_id must be defined\n  - query contains unknown properties: extra");
      const userId = await request("2.8.41", project, "server", "/team-invitations?user_id=me");
      expect(userId.body.error).toBe("Request validation failed on GET /api/v1/team-invitations:\n  - query contains unknown properties: user_id");
    });
  });

  describe("the invitations a user received (2.8.108)", () => {
    it("lists the pending invitations addressed to the user's verified emails, oldest first", async () => {
      const project = await emailProject();
      const invitee = await person(project);
      const unverified = email();
      const channel = await request("2.8.41", project, "server", "/contact-channels", {
        method: "POST",
        body: { user_id: invitee.id, value: unverified, type: "email", used_for_auth: false, is_verified: false },
      });
      expect(channel.status, channel.text).toBe(201);
      const [rockets, birds] = [await team(project, "Rockets"), await team(project, "Birds")];
      const first = await invite(project, rockets, invitee.address.toUpperCase());
      await invite(project, birds, unverified);
      await invite(project, birds, email());
      const second = await invite(project, birds, invitee.address);

      const listed = await request("2.8.108", project, "client", "/team-invitations?user_id=me", { as: invitee });
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body).toEqual({
        items: [
          { id: first, team_id: rockets, team_display_name: "Rockets", expires_at_millis: expect.any(Number), recipient_email: invitee.address },
          { id: second, team_id: birds, team_display_name: "Birds", expires_at_millis: expect.any(Number), recipient_email: invitee.address },
        ],
        is_paginated: false,
      });
      const byServer = await request("2.8.108", project, "server", `/team-invitations?user_id=${invitee.id}`);
      expect(byServer.body).toEqual(listed.body);
    });

    it("lets a client list only its own user's invitations", async () => {
      const project = await emailProject();
      const [me, other] = [await person(project), await person(project)];
      const own = await request("2.8.108", project, "client", `/team-invitations?user_id=${me.id}`, { as: me });
      expect(own.status).toBe(200);
      const others = await request("2.8.108", project, "client", `/team-invitations?user_id=${other.id}`, { as: me });
      expect(others.status).toBe(403);
      expect(others.text).toBe('Client can only list team invitations for their own user. user_id must be either "me" or the ID of the current user');
      const nobody = await request("2.8.108", project, "client", "/team-invitations?user_id=me");
      expect(nobody.body.code).toBe("CANNOT_GET_OWN_USER_WITHOUT_USER");
      const unknown = await request("2.8.108", project, "server", `/team-invitations?user_id=${crypto.randomUUID()}`);
      expect(unknown.body.code).toBe("USER_NOT_FOUND");
      const both = await request("2.8.108", project, "server", `/team-invitations?user_id=${me.id}&team_id=${crypto.randomUUID()}`);
      expect(both.body.error).toContain("query.user_id cannot be given together with team_id");
    });

    it("accepts one by id: the user joins the team, once, and it is no longer listed", async () => {
      const project = await emailProject();
      const invitee = await person(project);
      const teamId = await team(project, "Rockets");
      const id = await invite(project, teamId, invitee.address);

      const accepted = await request("2.8.108", project, "client", `/team-invitations/${id}/accept?user_id=me`, { method: "POST", as: invitee });
      expect(accepted.status, accepted.text).toBe(200);
      expect(accepted.body).toEqual({});
      expect(await members(teamId)).toEqual([invitee.id]);
      expect((await request("2.8.108", project, "client", "/team-invitations?user_id=me", { as: invitee })).body.items).toEqual([]);
      expect((await request("2.8.108", project, "server", `/team-invitations?team_id=${teamId}`)).body.items).toEqual([]);

      const again = await request("2.8.108", project, "client", `/team-invitations/${id}/accept?user_id=me`, { method: "POST", as: invitee });
      expect(again.status).toBe(404);
      expect(again.text).toBe("Team invitation not found.");
    });

    it("accepts for any user with server access, concurrently only once", async () => {
      const project = await emailProject();
      const invitee = await person(project);
      const teamId = await team(project, "Rockets");
      const id = await invite(project, teamId, invitee.address);
      const answers = await Promise.all([1, 2, 3].map(() => request("2.8.108", project, "server", `/team-invitations/${id}/accept?user_id=${invitee.id}`, { method: "POST" })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404]);
      expect(await members(teamId)).toEqual([invitee.id]);
    });

    it("refuses an invitation sent to an address the user has not verified", async () => {
      const project = await emailProject();
      const [invitee, unverifiedInvitee] = [await person(project), await person(project, false)];
      const teamId = await team(project, "Rockets");
      const elsewhere = await invite(project, teamId, email());
      const mismatch = await request("2.8.108", project, "client", `/team-invitations/${elsewhere}/accept?user_id=me`, { method: "POST", as: invitee });
      expect(mismatch.status).toBe(403);
      expect(mismatch.body).toEqual({
        code: "TEAM_INVITATION_EMAIL_MISMATCH",
        error: "This team invitation was sent to a different email address. Sign in with the invited email, or add and verify that email on your account, then try again.",
      });
      const toUnverified = await invite(project, teamId, unverifiedInvitee.address);
      const unverified = await request("2.8.108", project, "client", `/team-invitations/${toUnverified}/accept?user_id=me`, { method: "POST", as: unverifiedInvitee });
      expect(unverified.body.code).toBe("TEAM_INVITATION_EMAIL_MISMATCH");
      expect(await members(teamId)).toEqual([]);
    });

    it("refuses a restricted user: an anonymous one", async () => {
      const project = await emailProject({ "auth.allowSignUp": true });
      const signedUp = await request("2.8.108", project, "client", "/auth/anonymous/sign-up", { method: "POST" });
      expect(signedUp.status, signedUp.text).toBe(200);
      const anonymous = { id: signedUp.body.user_id, address: "", accessToken: signedUp.body.access_token };
      const teamId = await team(project, "Rockets");
      const id = await invite(project, teamId, email());
      const refused = await request("2.8.108", project, "client", `/team-invitations/${id}/accept?user_id=me`, { method: "POST", as: anonymous, anonymous: true });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED");
      expect(refused.body.details).toEqual({ restricted_reason: { type: "anonymous" } });
    });

    it("answers an unknown invitation id with a plain 404", async () => {
      const project = await emailProject();
      const invitee = await person(project);
      for (const id of [crypto.randomUUID(), "not-a-uuid"]) {
        const answer = await request("2.8.108", project, "client", `/team-invitations/${id}/accept?user_id=me`, { method: "POST", as: invitee });
        expect(answer.status).toBe(404);
      }
    });

    it("does not exist for 2.8.41", async () => {
      const project = await emailProject();
      const invitee = await person(project);
      const teamId = await team(project, "Rockets");
      const id = await invite(project, teamId, invitee.address);
      const withUser = await request("2.8.41", project, "client", `/team-invitations/${id}/accept?user_id=me`, { method: "POST", as: invitee });
      expect(withUser.body.error).toContain("query contains unknown properties: user_id");
      const withoutUser = await request("2.8.41", project, "client", `/team-invitations/${id}/accept`, { method: "POST", as: invitee });
      expect(withoutUser.body.error).toContain("query.user_id must be defined");
      expect(await members(teamId)).toEqual([]);
    });
  });
});

// Issue 14: the smaller calls of the 2.8.108 client: the anonymous session a CLI login carries, bot-challenge
// fields, analytics batches (JSON or gzip) and backend URL discovery.
describe("the smaller calls in each dialect", () => {
  type Dialect = "2.8.41" | "2.8.108";
  const prefixOf = (dialect: Dialect) => (dialect === "2.8.41" ? "x-stack-" : "x-hexclave-");

  function headersFor(dialect: Dialect, project: TestProject, options: { accessToken?: string; anonymous?: boolean } = {}): Record<string, string> {
    const headers: Record<string, string> = { ...project.headers("client") };
    if (options.accessToken) headers["x-stack-access-token"] = options.accessToken;
    if (options.anonymous) headers["x-stack-allow-anonymous-user"] = "true";
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.replace(/^x-stack-/, prefixOf(dialect)), value]));
  }

  function post(dialect: Dialect, project: TestProject, path: string, body: unknown, options: { accessToken?: string; anonymous?: boolean } = {}): Promise<ApiResponse> {
    return api(server.url, path, { method: "POST", headers: headersFor(dialect, project, options), body });
  }

  async function anonymousUser(project: TestProject) {
    const signedUp = await post("2.8.108", project, "/auth/anonymous/sign-up", undefined);
    expect(signedUp.status, signedUp.text).toBe(200);
    return signedUp.body as { user_id: string; access_token: string; refresh_token: string };
  }

  describe("a CLI login that carries the tool's anonymous session (2.8.108 anon_refresh_token)", () => {
    const check = (project: TestProject, loginCode: string) => post("2.8.108", project, "/auth/cli/complete", { login_code: loginCode, mode: "check" });

    it("tells the confirmation page's check that the tool is signed in anonymously", async () => {
      const project = await createTestProject(server);
      const anonymous = await anonymousUser(project);
      const started = await post("2.8.108", project, "/auth/cli", { anon_refresh_token: anonymous.refresh_token });
      expect(started.status, started.text).toBe(200);
      expect(Object.keys(started.body).sort()).toEqual(["expires_at", "login_code", "polling_code"]);
      expect((await check(project, started.body.login_code)).body).toEqual({ cli_session_state: "anonymous" });

      const plain = await post("2.8.108", project, "/auth/cli", {});
      expect((await check(project, plain.body.login_code)).body).toEqual({ cli_session_state: "none" });
    });

    it("says none once the anonymous user signed up, or the session ended", async () => {
      const project = await createTestProject(server, "CLI", { configOverride: { "auth.password.allowSignIn": true } });
      const upgraded = await anonymousUser(project);
      const started = await post("2.8.108", project, "/auth/cli", { anon_refresh_token: upgraded.refresh_token });
      const signUp = await post("2.8.108", project, "/auth/password/sign-up", { email: `cli-${crypto.randomUUID()}@example.com`, password: "correct horse battery" }, {
        accessToken: upgraded.access_token,
        anonymous: true,
      });
      expect(signUp.body.user_id).toBe(upgraded.user_id);
      expect((await check(project, started.body.login_code)).body).toEqual({ cli_session_state: "none" });

      const ended = await anonymousUser(project);
      const second = await post("2.8.108", project, "/auth/cli", { anon_refresh_token: ended.refresh_token });
      await server.db.deleteFrom("sessions").where("user_id", "=", ended.user_id).execute();
      expect((await check(project, second.body.login_code)).body).toEqual({ cli_session_state: "none" });
    });

    it("starts the login anyway with a token that is not a live anonymous session, and the login completes as usual", async () => {
      const project = await createTestProject(server);
      const started = await post("2.8.108", project, "/auth/cli", { anon_refresh_token: "no-such-token" });
      expect(started.status).toBe(200);
      expect((await check(project, started.body.login_code)).body).toEqual({ cli_session_state: "none" });
      const person = await anonymousUser(project);
      const completed = await post("2.8.108", project, "/auth/cli/complete", { login_code: started.body.login_code, refresh_token: person.refresh_token });
      expect(completed.body).toEqual({ success: true });
      const polled = await post("2.8.108", project, "/auth/cli/poll", { polling_code: started.body.polling_code });
      expect(polled.status).toBe(201);
    });

    it("is refused from 2.8.41, which does not send it", async () => {
      const project = await createTestProject(server);
      const started = await post("2.8.41", project, "/auth/cli", { anon_refresh_token: "x" });
      expect(started.status).toBe(400);
      expect(started.body.error).toBe("Request validation failed on POST /api/v1/auth/cli:\n  - body contains unknown properties: anon_refresh_token");
    });
  });

  describe("bot-challenge fields (2.8.108), which Latchkey accepts and ignores", () => {
    const challenge = { bot_challenge_token: "token-from-the-widget", bot_challenge_phase: "invisible" };

    it("signs up with a password, with or without a verification link", async () => {
      const project = await createTestProject(server, "Bots", { configOverride: { "auth.password.allowSignIn": true } });
      for (const body of [challenge, { bot_challenge_unavailable: "true" }]) {
        const signedUp = await post("2.8.108", project, "/auth/password/sign-up", { email: `bot-${crypto.randomUUID()}@example.com`, password: "correct horse battery", ...body });
        expect(signedUp.status, signedUp.text).toBe(200);
        expect(signedUp.body.is_new_user).toBe(true);
      }
      const older = await post("2.8.41", project, "/auth/password/sign-up", { email: `bot-${crypto.randomUUID()}@example.com`, password: "correct horse battery", ...challenge });
      expect(older.body.error).toContain("body contains unknown properties: bot_challenge_token, bot_challenge_phase");
    });

    it("sends a sign-in code", async () => {
      const project = await createTestProject(server, "Bots", {
        configOverride: { "auth.otp.allowSignIn": true, "domains.trustedDomains.app": { baseUrl: "https://app.example.com", handlerPath: "/handler" } },
      });
      const body = { email: `bot-${crypto.randomUUID()}@example.com`, callback_url: "https://app.example.com/handler/magic-link-callback" };
      const sent = await post("2.8.108", project, "/auth/otp/send-sign-in-code", { ...body, ...challenge });
      expect(sent.status, sent.text).toBe(200);
      expect(Object.keys(sent.body)).toEqual(["nonce"]);
      const older = await post("2.8.41", project, "/auth/otp/send-sign-in-code", { ...body, bot_challenge_unavailable: "true" });
      expect(older.body.error).toContain("body contains unknown properties: bot_challenge_unavailable");
    });

    it("refuses a phase the protocol does not have", async () => {
      const project = await createTestProject(server, "Bots", { configOverride: { "auth.password.allowSignIn": true } });
      const answer = await post("2.8.108", project, "/auth/password/sign-up", { email: `bot-${crypto.randomUUID()}@example.com`, password: "correct horse battery", bot_challenge_phase: "loud" });
      expect(answer.body.code).toBe("SCHEMA_ERROR");
    });
  });

  describe("analytics batches (POST /analytics/events/batch)", () => {
    const batch = (events: unknown[]) => ({ session_replay_segment_id: crypto.randomUUID(), batch_id: crypto.randomUUID(), sent_at_ms: Date.now(), events });
    const pageView = (at: number) => ({ event_type: "$page-view", event_at_ms: at, data: { url: "https://app.example.com/", path: "/", entry_type: "initial" } });
    const click = (at: number) => ({ event_type: "$click", event_at_ms: at, data: { tag_name: "button", text: "Sign in", x: 4, y: 2 } });

    async function sendRaw(project: TestProject, accessToken: string, body: Uint8Array<ArrayBuffer> | string, contentType: string): Promise<ApiResponse> {
      const response = await fetch(`${server.url}/api/v1/analytics/events/batch`, {
        method: "POST",
        headers: { ...headersFor("2.8.108", project, { accessToken, anonymous: true }), "content-type": contentType },
        body,
      });
      const text = await response.text();
      const parsed = text.startsWith("{") ? JSON.parse(text) : text;
      expectProtocolInvariants(response, parsed);
      return { status: response.status, headers: response.headers, body: parsed, text };
    }
    const stored = (userId: string) =>
      server.db.selectFrom("analytics_events").select(["event_type", "event_at", "data", "project_id"]).where("user_id", "=", userId).orderBy("event_at").execute();

    it("stores the events of an anonymous user's batch sent as JSON", async () => {
      const project = await createTestProject(server);
      const visitor = await anonymousUser(project);
      const at = Date.now() - 1000;
      const answer = await sendRaw(project, visitor.access_token, JSON.stringify(batch([pageView(at), click(at + 10)])), "application/json");
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ inserted: 2 });
      expect(await stored(visitor.user_id)).toEqual([
        { event_type: "$page-view", event_at: new Date(at), data: pageView(at).data, project_id: project.projectId },
        { event_type: "$click", event_at: new Date(at + 10), data: click(at + 10).data, project_id: project.projectId },
      ]);
    });

    it("stores a batch sent gzip-compressed as application/octet-stream, as the browser client does", async () => {
      const project = await createTestProject(server);
      const visitor = await anonymousUser(project);
      const at = Date.now();
      const answer = await sendRaw(project, visitor.access_token, new Uint8Array(gzipSync(JSON.stringify(batch([pageView(at)])))), "application/octet-stream");
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ inserted: 1 });
      expect((await stored(visitor.user_id)).map((row) => row.event_type)).toEqual(["$page-view"]);
    });

    it("refuses bytes that are not gzip-compressed JSON, and a batch that inflates too far", async () => {
      const project = await createTestProject(server);
      const visitor = await anonymousUser(project);
      const notGzip = await sendRaw(project, visitor.access_token, new TextEncoder().encode(JSON.stringify(batch([]))), "application/octet-stream");
      expect(notGzip.body.code).toBe("BODY_PARSING_ERROR");
      const notJson = await sendRaw(project, visitor.access_token, new Uint8Array(gzipSync("{not json")), "application/octet-stream");
      expect(notJson.body.code).toBe("BODY_PARSING_ERROR");
      const bomb = await sendRaw(project, visitor.access_token, new Uint8Array(gzipSync(" ".repeat(5_000_000))), "application/octet-stream");
      expect(bomb.body.code).toBe("BODY_PARSING_ERROR");
      expect(bomb.body.error).toContain("inflates to more than");
    });

    it("still hands other routes an octet-stream body as bytes, which their schemas refuse", async () => {
      const project = await createTestProject(server);
      const response = await fetch(`${server.url}/api/v1/auth/cli/poll`, {
        method: "POST",
        headers: { ...headersFor("2.8.108", project), "content-type": "application/octet-stream" },
        body: new Uint8Array(gzipSync(JSON.stringify({ polling_code: "x" }))),
      });
      expect(response.status).toBe(400);
      expect((await response.json()).code).toBe("SCHEMA_ERROR");
    });

    it("needs a signed-in user and a well-formed batch", async () => {
      const project = await createTestProject(server);
      const nobody = await sendRaw(project, "", JSON.stringify(batch([pageView(Date.now())])), "application/json");
      expect(nobody.body.error).toContain("auth.user must be defined");
      const visitor = await anonymousUser(project);
      const malformed = await sendRaw(project, visitor.access_token, JSON.stringify({ ...batch([{ event_type: "$click", event_at_ms: "now", data: {} }]), extra: 1 }), "application/json");
      expect(malformed.body.code).toBe("SCHEMA_ERROR");
      expect(malformed.body.error).toContain("body.events[0].event_at_ms");
    });

    it("deletes events older than the retention period when later batches come in", async () => {
      const project = await createTestProject(server);
      const visitor = await anonymousUser(project);
      await sendRaw(project, visitor.access_token, JSON.stringify(batch([pageView(Date.now()), click(Date.now())])), "application/json");
      const later = new Date(Date.now() + ANALYTICS_RETENTION_MS + 60_000);
      expect(await deleteExpiredAnalyticsEvents(server.db, { now: later, limit: 1 })).toBe(1);
      expect(await deleteExpiredAnalyticsEvents(server.db, { now: later })).toBeGreaterThanOrEqual(1);
      expect(await stored(visitor.user_id)).toEqual([]);
      expect(await deleteExpiredAnalyticsEvents(server.db)).toBe(0);
    });
  });

  describe("backend URL discovery (GET /internal/backend-urls)", () => {
    it("is not answered, so the 2.8.108 client keeps the base URL it was given", async () => {
      const response = await fetch(`${server.url}/api/v1/internal/backend-urls`, { headers: { origin: "https://app.example.com" } });
      expect(response.status).toBe(404);
      // Readable cross-origin, so the client's background fetch sees a plain non-OK answer, which it ignores.
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
    });
  });
});
