import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { WELL_KNOWN_DEV_KEYS } from "../src/env.js";
import { findProject } from "../src/services/projects.js";
import { signInUser } from "../src/services/sessions.js";
import { createUser } from "../src/services/users.js";
import { api } from "./support/api.js";
import { stackSdk } from "./support/stack-sdk.js";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { as, configure, email, expectSchemaError, server, useServerForFile } from "./support/users-fixture.js";

// One server for the file.
useServerForFile();

// The project and its legacy config as the protocol's clients see them (issue 13 §1 and §4).
describe("the project and its legacy config", () => {
  const as = (project: TestProject, access: "client" | "server" | "admin", path: string, request: { method?: string; body?: unknown } = {}) =>
    api(server.url, path, { ...request, headers: project.headers(access) });
  const patchConfig = (project: TestProject, config: Record<string, unknown>) => as(project, "admin", "/internal/projects/current", { method: "PATCH", body: { config } });

  async function internalUserToken(): Promise<{ accessToken: string; teamId: string }> {
    const internal = await findProject(server.db, "internal");
    const user = await createUser(server.db, internal!, { primaryEmail: `owner-${crypto.randomUUID()}@example.com`, primaryEmailVerified: true });
    const tokens = await signInUser(server.db, server.env, { projectId: "internal", userId: user.id });
    return { accessToken: tokens.access_token, teamId: user.selected_team_id! };
  }

  describe("schema errors of the legacy config", () => {
    it("says `URL must start with http:// or https://` without a field path for a trusted domain of another scheme", async () => {
      const project = await createTestProject(server);
      const response = await patchConfig(project, { domains: [{ domain: "ftp://example.com", handler_path: "/handler" }] });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe("SCHEMA_ERROR");
      expect(response.body.error).toBe("Request validation failed on PATCH /api/v1/internal/projects/current:\n  - URL must start with http:// or https://");
    });

    it("reports a domain that is no URL at all with its path, then the scheme line", async () => {
      const project = await createTestProject(server);
      const response = await patchConfig(project, { domains: [{ domain: "example.com", handler_path: "/handler" }] });
      expect(response.body.error).toBe(
        "Request validation failed on PATCH /api/v1/internal/projects/current:\n  - body.config.domains[0].domain is not a valid URL\n  - URL must start with http:// or https://",
      );
    });

    it("lists the missing fields of a standard email config in the order host, port, username, password, sender_name, sender_email", async () => {
      const project = await createTestProject(server);
      const response = await patchConfig(project, { email_config: { type: "standard" } });
      expect(response.body.code).toBe("SCHEMA_ERROR");
      const path = "body.config.email_config";
      expect(response.body.error).toBe(
        "Request validation failed on PATCH /api/v1/internal/projects/current:\n" +
          ["host", "port", "username", "password", "sender_name", "sender_email"].map((field) => `  - ${path}.${field} must be defined`).join("\n"),
      );
    });
  });

  describe("enabled OAuth providers", () => {
    it("are `{id}` only in every view: client, admin, the update's answer, the owner's project list", async () => {
      const owner = await internalUserToken();
      const created = await api(server.url, "/internal/projects", {
        access: "client",
        headers: { "x-stack-access-token": owner.accessToken },
        body: { display_name: "OAuth app", owner_team_id: owner.teamId, config: { oauth_providers: [{ id: "github", type: "standard", client_id: "id", client_secret: "secret" }, { id: "google", type: "shared" }] } },
      });
      expect(created.status).toBe(201);
      const expected = [{ id: "github" }, { id: "google" }];
      expect(created.body.config.enabled_oauth_providers).toEqual(expected);
      expect(created.body.config.oauth_providers[0]).toMatchObject({ id: "github", client_secret: "secret" });

      const ownerHeaders = { "x-stack-project-id": created.body.id, "x-stack-admin-access-token": owner.accessToken };
      const read = await api(server.url, "/internal/projects/current", { headers: { ...ownerHeaders, "x-stack-access-type": "admin" } });
      expect(read.body.config.enabled_oauth_providers).toEqual(expected);
      const updated = await api(server.url, "/internal/projects/current", { method: "PATCH", headers: { ...ownerHeaders, "x-stack-access-type": "admin" }, body: { display_name: "Renamed" } });
      expect(updated.body.config.enabled_oauth_providers).toEqual(expected);
      const client = await api(server.url, "/projects/current", { headers: { ...ownerHeaders, "x-stack-access-type": "client" } });
      expect(client.body.config.enabled_oauth_providers).toEqual(expected);
      const list = await api(server.url, "/internal/projects", { access: "client", headers: { "x-stack-access-token": owner.accessToken } });
      expect(list.body.items[0].config.enabled_oauth_providers).toEqual(expected);
    });
  });

  describe("list order", () => {
    it("lists OAuth providers by id and trusted domains by domain, whatever order they were given in", async () => {
      const project = await createTestProject(server);
      const updated = await patchConfig(project, {
        oauth_providers: [
          { id: "spotify", type: "shared" },
          { id: "github", type: "shared" },
          { id: "google", type: "shared" },
        ],
        domains: [
          { domain: "https://zeta.example.com", handler_path: "/handler" },
          { domain: "https://alpha.example.com", handler_path: "/auth" },
          { domain: "http://localhost:3000", handler_path: "/handler" },
        ],
      });
      expect(updated.status).toBe(200);
      const read = await as(project, "admin", "/internal/projects/current");
      for (const config of [updated.body.config, read.body.config]) {
        expect(config.oauth_providers.map((p: { id: string }) => p.id)).toEqual(["github", "google", "spotify"]);
        expect(config.enabled_oauth_providers).toEqual([{ id: "github" }, { id: "google" }, { id: "spotify" }]);
        expect(config.domains).toEqual([
          { domain: "http://localhost:3000", handler_path: "/handler" },
          { domain: "https://alpha.example.com", handler_path: "/auth" },
          { domain: "https://zeta.example.com", handler_path: "/handler" },
        ]);
      }
      const client = await as(project, "client", "/projects/current");
      expect(client.body.config.enabled_oauth_providers).toEqual([{ id: "github" }, { id: "google" }, { id: "spotify" }]);
    });
  });

  describe("the email theme", () => {
    it("must be a theme the project has: anything else is 400 `Invalid email theme` and changes nothing", async () => {
      const project = await createTestProject(server);
      const bad = await patchConfig(project, { email_theme: "no-such-theme", sign_up_enabled: false });
      expect(bad.status).toBe(400);
      expect(bad.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(bad.text).toBe("Invalid email theme");
      expect((await as(project, "admin", "/internal/projects/current")).body.config.sign_up_enabled).toBe(true);

      const owner = await internalUserToken();
      const created = await api(server.url, "/internal/projects", {
        access: "client",
        headers: { "x-stack-access-token": owner.accessToken },
        body: { display_name: "Themed", owner_team_id: owner.teamId, config: { email_theme: "no-such-theme" } },
      });
      expect(created.status).toBe(400);
      expect(created.text).toBe("Invalid email theme");
    });

    it("may be a built-in theme or one the project defines", async () => {
      const project = await createTestProject(server);
      const dark = await patchConfig(project, { email_theme: "a0172b5d-cff0-463b-83bb-85124697373a" });
      expect(dark.status).toBe(200);
      expect(dark.body.config.email_theme).toBe("a0172b5d-cff0-463b-83bb-85124697373a");
      const themeId = crypto.randomUUID();
      const defined = await as(project, "admin", "/internal/config/override", {
        method: "PATCH",
        body: { config_override_string: JSON.stringify({ [`emails.themes.${themeId}`]: { displayName: "Ours", tsxSource: "export function EmailTheme() {}" } }) },
      });
      expect(defined.status).toBe(200);
      expect((await patchConfig(project, { email_theme: themeId })).body.config.email_theme).toBe(themeId);
    });
  });

  describe("an admin access token of a project that was deleted", () => {
    it("answers CURRENT_PROJECT_NOT_FOUND: the project is looked up before the token's ownership", async () => {
      const owner = await internalUserToken();
      const created = await api(server.url, "/internal/projects", {
        access: "client",
        headers: { "x-stack-access-token": owner.accessToken },
        body: { display_name: "Short-lived", owner_team_id: owner.teamId },
      });
      const headers = { "x-stack-project-id": created.body.id, "x-stack-access-type": "admin", "x-stack-admin-access-token": owner.accessToken };
      expect((await api(server.url, "/internal/projects/current", { method: "DELETE", headers })).body).toEqual({ success: true });
      const after = await api(server.url, "/internal/projects/current", { headers });
      expect(after.status).toBe(400);
      expect(after.body).toMatchObject({ code: "CURRENT_PROJECT_NOT_FOUND", details: { project_id: created.body.id } });
    });
  });
});

// `POST /internal/projects/transfer` as the protocol answers it (issue 13 §4): any access type on the
// internal project with a signed-in user; `team_admin` of the current owner team is checked first (401
// TEAM_PERMISSION_REQUIRED), then membership of the new team (404 TEAM_MEMBERSHIP_NOT_FOUND); the answer is
// `{"success":"true"}`, a string.
describe("POST /internal/projects/transfer", () => {
  interface Owner {
    id: string;
    personalTeamId: string;
    accessToken: string;
  }

  async function internalUser(): Promise<Owner> {
    const internal = await findProject(server.db, "internal");
    const user = await createUser(server.db, internal!, { primaryEmail: `owner-${crypto.randomUUID()}@example.com`, primaryEmailVerified: true });
    const tokens = await signInUser(server.db, server.env, { projectId: "internal", userId: user.id });
    return { id: user.id, personalTeamId: user.selected_team_id!, accessToken: tokens.access_token };
  }

  /** A team of the internal project; `admins` also get `team_admin`. */
  async function team(members: Owner[], admins: Owner[] = []): Promise<string> {
    const { id } = await server.db
      .insertInto("teams")
      .values({ project_id: "internal", display_name: "Team", profile_image_url: null, client_metadata: null, client_read_only_metadata: null, server_metadata: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const member of [...members, ...admins]) {
      await server.db.insertInto("team_members").values({ project_id: "internal", team_id: id, user_id: member.id, display_name: null, profile_image_url: null }).execute();
    }
    for (const admin of admins) {
      await server.db.insertInto("team_member_permissions").values({ project_id: "internal", team_id: id, user_id: admin.id, permission_id: "team_admin" }).execute();
    }
    return id;
  }

  const KEY_HEADER = {
    client: ["x-stack-publishable-client-key", WELL_KNOWN_DEV_KEYS.publishableClientKey],
    server: ["x-stack-secret-server-key", WELL_KNOWN_DEV_KEYS.secretServerKey],
    admin: ["x-stack-super-secret-admin-key", WELL_KNOWN_DEV_KEYS.superSecretAdminKey],
  } as const;

  function transfer(access: "client" | "server" | "admin", user: Owner | null, body: Record<string, unknown>) {
    const [name, key] = KEY_HEADER[access];
    const headers: Record<string, string> = { "x-stack-project-id": "internal", "x-stack-access-type": access, [name]: key };
    if (user) headers["x-stack-access-token"] = user.accessToken;
    return api(server.url, "/internal/projects/transfer", { headers, body });
  }

  async function projectOf(owner: Owner, teamId: string): Promise<string> {
    const created = await api(server.url, "/internal/projects", {
      access: "client",
      headers: { "x-stack-access-token": owner.accessToken },
      body: { display_name: "Moving", owner_team_id: teamId },
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  const ownerTeamOf = async (projectId: string) => (await findProject(server.db, projectId))!.owner_team_id;

  it("moves the project for a signed-in user with any access type, answering success as the string \"true\"", async () => {
    const user = await internalUser();
    const projectId = await projectOf(user, user.personalTeamId);
    for (const access of ["client", "server", "admin"] as const) {
      const to = await team([], [user]);
      const response = await transfer(access, user, { project_id: projectId, new_team_id: to });
      expect(response.status).toBe(200);
      expect(response.text).toBe('{"success":"true"}');
      expect(await ownerTeamOf(projectId)).toBe(to);
    }
  });

  it("needs a signed-in user", async () => {
    const user = await internalUser();
    const projectId = await projectOf(user, user.personalTeamId);
    const response = await transfer("client", null, { project_id: projectId, new_team_id: user.personalTeamId });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("USER_AUTHENTICATION_REQUIRED");
  });

  it("requires team_admin in the current owner team, checked before the new team (401 TEAM_PERMISSION_REQUIRED)", async () => {
    const admin = await internalUser();
    const member = await internalUser();
    const owners = await team([member], [admin]);
    const projectId = await projectOf(admin, owners);
    // A plain member of the owner team, moving it to a team they are not in either: the permission is reported.
    const stranger = await team([]);
    const response = await transfer("client", member, { project_id: projectId, new_team_id: stranger });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      code: "TEAM_PERMISSION_REQUIRED",
      error: `User ${member.id} does not have permission team_admin in team ${owners}.`,
      details: { team_id: owners, user_id: member.id, permission_id: "team_admin" },
    });
    expect(await ownerTeamOf(projectId)).toBe(owners);
  });

  it("requires membership of the new team (404 TEAM_MEMBERSHIP_NOT_FOUND)", async () => {
    const user = await internalUser();
    const projectId = await projectOf(user, user.personalTeamId);
    const elsewhere = await team([await internalUser()]);
    const response = await transfer("admin", user, { project_id: projectId, new_team_id: elsewhere });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: "TEAM_MEMBERSHIP_NOT_FOUND", details: { team_id: elsewhere, user_id: user.id } });
    expect(await ownerTeamOf(projectId)).toBe(user.personalTeamId);
  });

  it("reports a project that does not exist", async () => {
    const user = await internalUser();
    const missing = crypto.randomUUID();
    const response = await transfer("client", user, { project_id: missing, new_team_id: user.personalTeamId });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: "PROJECT_NOT_FOUND", details: { project_id: missing } });
  });
});

// `GET /internal/metrics` (issue 13 §4), in the shapes the protocol's dashboard reads: 31 UTC days of
// sign-ups and active users, users by the country of their latest activity (cf-ipcountry, x-vercel-ip-country),
// the five newest and most recently active users, and the sign-in methods held. Anonymous users count only
// with include_anonymous=true.
describe("GET /internal/metrics", () => {
  const DAY_MS = 86_400_000;
  const utcDay = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

  async function signUp(project: TestProject): Promise<{ id: string; token: string }> {
    const response = await api(server.url, "/auth/password/sign-up", { headers: project.headers("client"), body: { email: `m-${crypto.randomUUID()}@example.com`, password: "correct horse" } });
    expect(response.status).toBe(200);
    return { id: response.body.user_id, token: response.body.access_token };
  }

  /** A request made signed in, from a country as the edge reports it. */
  async function activeFrom(project: TestProject, token: string, headers: Record<string, string> = {}, anonymous = false): Promise<void> {
    const allow: Record<string, string> = anonymous ? { "x-stack-allow-anonymous-user": "true" } : {};
    const response = await api(server.url, "/users/me", { headers: { ...project.headers("client"), "x-stack-access-token": token, ...allow, ...headers } });
    expect(response.status).toBe(200);
  }

  const metrics = (project: TestProject, query = "") => api(server.url, `/internal/metrics${query}`, { headers: project.headers("admin") });

  it("counts users, sign-ups and activity per day, countries, recent users and sign-in methods", async () => {
    const project = await createTestProject(server);
    const alice = await signUp(project);
    const bob = await signUp(project);
    const anonymous = await api(server.url, "/auth/anonymous/sign-up", { headers: project.headers("client"), body: {} });
    const dora = await api(server.url, "/users", {
      headers: project.headers("server"),
      body: { primary_email: `d-${crypto.randomUUID()}@example.com`, primary_email_auth_enabled: true, otp_auth_enabled: true },
    });
    expect(dora.status).toBe(201);

    await activeFrom(project, alice.token, { "cf-ipcountry": "DE" });
    await activeFrom(project, alice.token, { "cf-ipcountry": "DE" });
    await activeFrom(project, bob.token, { "x-vercel-ip-country": "us" });
    await activeFrom(project, anonymous.body.access_token, { "cf-ipcountry": "FR" }, true);
    // Dora signed up three days ago, and Alice was active yesterday from elsewhere: her latest country counts.
    await server.db.updateTable("users").set({ created_at: new Date(Date.now() - 3 * DAY_MS) } as never).where("id", "=", dora.body.id).execute();
    await server.db.insertInto("user_activity_days").values({ project_id: project.projectId, user_id: alice.id, day: utcDay(-1), country_code: "GB" }).execute();

    const response = await metrics(project);
    expect(response.status).toBe(200);
    const body = response.body;
    expect(Object.keys(body).sort()).toEqual(["daily_active_users", "daily_users", "login_methods", "recently_active", "recently_registered", "total_users", "users_by_country"]);
    expect(body.total_users).toBe(3);

    const expectedDays = Array.from({ length: 31 }, (_, i) => utcDay(i - 30));
    expect(body.daily_users.map((p: { date: string }) => p.date)).toEqual(expectedDays);
    expect(body.daily_active_users.map((p: { date: string }) => p.date)).toEqual(expectedDays);
    const activityOn = (series: { date: string; activity: number }[], offset: number) => series.find((p) => p.date === utcDay(offset))!.activity;
    expect(activityOn(body.daily_users, 0)).toBe(2);
    expect(activityOn(body.daily_users, -3)).toBe(1);
    expect(body.daily_users.reduce((n: number, p: { activity: number }) => n + p.activity, 0)).toBe(3);
    expect(activityOn(body.daily_active_users, 0)).toBe(2);
    expect(activityOn(body.daily_active_users, -1)).toBe(1);

    expect(body.users_by_country).toEqual({ DE: 1, US: 1 });
    expect(body.recently_registered.map((u: { id: string }) => u.id)).toEqual([bob.id, alice.id, dora.body.id]);
    expect(body.recently_registered[0]).toMatchObject({ id: bob.id, is_anonymous: false, has_password: true, last_active_at_millis: expect.any(Number) });
    const active = body.recently_active as { id: string; last_active_at_millis: number }[];
    expect(active.map((u) => u.id).sort()).toEqual([alice.id, bob.id, dora.body.id].sort());
    expect(active.map((u) => u.last_active_at_millis)).toEqual([...active.map((u) => u.last_active_at_millis)].sort((a, b) => b - a));
    expect(body.login_methods).toEqual([
      { method: "password", count: 2 },
      { method: "otp", count: 1 },
    ]);
  });

  it("counts anonymous users only with include_anonymous=true", async () => {
    const project = await createTestProject(server);
    const alice = await signUp(project);
    await activeFrom(project, alice.token, { "cf-ipcountry": "DE" });
    const anonymous = await api(server.url, "/auth/anonymous/sign-up", { headers: project.headers("client"), body: {} });
    await activeFrom(project, anonymous.body.access_token, { "cf-ipcountry": "FR" }, true);

    const without = (await metrics(project)).body;
    const withAnonymous = (await metrics(project, "?include_anonymous=true")).body;
    expect([without.total_users, withAnonymous.total_users]).toEqual([1, 2]);
    expect([without.daily_users.at(-1).activity, withAnonymous.daily_users.at(-1).activity]).toEqual([1, 2]);
    expect([without.daily_active_users.at(-1).activity, withAnonymous.daily_active_users.at(-1).activity]).toEqual([1, 2]);
    expect(without.users_by_country).toEqual({ DE: 1 });
    expect(withAnonymous.users_by_country).toEqual({ DE: 1, FR: 1 });
    expect(without.recently_registered.map((u: { id: string }) => u.id)).toEqual([alice.id]);
    expect(withAnonymous.recently_registered.map((u: { id: string }) => u.id)).toEqual([anonymous.body.user_id, alice.id]);
    expect(withAnonymous.recently_active).toHaveLength(2);
  });

  it("leaves out countries the edge does not know, and shows at most five recent users", async () => {
    const project = await createTestProject(server);
    const users = [];
    for (let i = 0; i < 6; i++) users.push(await signUp(project));
    await activeFrom(project, users[0]!.token, { "cf-ipcountry": "XX" });
    await activeFrom(project, users[1]!.token, { "cf-ipcountry": "T1" });
    await activeFrom(project, users[2]!.token);
    const body = (await metrics(project)).body;
    expect(body.users_by_country).toEqual({});
    expect(body.daily_active_users.at(-1).activity).toBe(3);
    expect(body.recently_registered.map((u: { id: string }) => u.id)).toEqual(users.slice(1).reverse().map((u) => u.id));
    expect(body.recently_active).toHaveLength(5);
  });

  it("is for admins, and refuses unknown query parameters", async () => {
    const project = await createTestProject(server);
    const client = await api(server.url, "/internal/metrics", { headers: project.headers("server") });
    expect(client.status).toBe(401);
    expect(client.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    const extra = await metrics(project, "?extra=1");
    expect(extra.status).toBe(400);
    expect(extra.body.error).toBe("Request validation failed on GET /api/v1/internal/metrics:\n  - query contains unknown properties: extra");
  });
});

// Issue 13: the email routes, now declared, answer with exactly the reference's fields (stack-shared
// interface/crud/emails.js and notification-preferences.js) and refuse unknown keys as it does.
describe("email route shapes", () => {
  const TRANSACTIONAL = "7bb82d33-2f54-4a3d-9d23-82739e0d66ef";
  const MARKETING = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";

  async function signUp(project: TestProject) {
    const response = await as(project, "client", "/auth/password/sign-up", { body: { email: email(), password: "correct horse" } });
    expect(response.status).toBe(200);
    return { userId: response.body.user_id as string, tokens: response.body };
  }

  describe("notification preferences", () => {
    it("answer each category with exactly notification_category_id, notification_category_name, enabled and can_disable", async () => {
      const project = await createTestProject(server);
      const user = await signUp(project);
      const list = await as(project, "client", "/emails/notification-preference/me", { tokens: user.tokens });
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        items: [
          { notification_category_id: TRANSACTIONAL, notification_category_name: "Transactional", enabled: true, can_disable: false },
          { notification_category_id: MARKETING, notification_category_name: "Marketing", enabled: true, can_disable: true },
        ],
        is_paginated: false,
      });
      const updated = await as(project, "server", `/emails/notification-preference/${user.userId}/${MARKETING}`, { method: "PATCH", body: { enabled: false } });
      expect(updated.status).toBe(200);
      expect(updated.body).toEqual({ notification_category_id: MARKETING, notification_category_name: "Marketing", enabled: false, can_disable: true });
    });

    it("refuse unknown keys in the body and the query", async () => {
      const project = await createTestProject(server);
      const user = await signUp(project);
      expectSchemaError(
        await as(project, "client", `/emails/notification-preference/me/${MARKETING}`, { method: "PATCH", body: { enabled: false, extra: 1 }, tokens: user.tokens }),
        "body contains unknown properties: extra",
      );
      expectSchemaError(await as(project, "client", "/emails/notification-preference/me?extra=1", { tokens: user.tokens }), "query contains unknown properties: extra");
      expectSchemaError(await api(server.url, "/emails/unsubscribe-link?code=x&extra=1"), "query contains unknown properties: extra");
    });
  });

  describe("POST /emails/send-email", () => {
    it("answers results of user_id and, for users with a primary email, user_email", async () => {
      const project = await createTestProject(server);
      // A project on its own email server (as the protocol requires); nothing listens there, so delivery fails and is recorded.
      await configure(project, { "emails.server": { isShared: false, host: "127.0.0.1", port: await closedPort(), username: "u", password: "p", senderName: "S", senderEmail: "s@example.com" } });
      const withEmail = await as(project, "server", "/users", { method: "POST", body: { primary_email: email() } });
      const without = await as(project, "server", "/users", { method: "POST", body: {} });
      const response = await as(project, "server", "/emails/send-email", { body: { user_ids: [withEmail.body.id, without.body.id], subject: "Hi", html: "<p>Hi</p>" } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ results: [{ user_id: withEmail.body.id, user_email: withEmail.body.primary_email }, { user_id: without.body.id }] });
    });
  });

  describe("POST /internal/send-test-email", () => {
    const config = { host: "127.0.0.1", port: 1, username: "u", password: "p", sender_name: "S", sender_email: "s@example.com" };

    it("lists missing email_config fields in the protocol's order", async () => {
      const project = await createTestProject(server);
      const response = await as(project, "admin", "/internal/send-test-email", { body: { recipient_email: email(), email_config: {} } });
      expectSchemaError(response);
      const fields = ["host", "port", "username", "password", "sender_name", "sender_email"];
      expect(response.body.error).toBe(`Request validation failed on POST /api/v1/internal/send-test-email:\n${fields.map((f) => `  - body.email_config.${f} must be defined`).join("\n")}`);
    });

    it("refuses unknown keys in the body and in email_config", async () => {
      const project = await createTestProject(server);
      expectSchemaError(await as(project, "admin", "/internal/send-test-email", { body: { recipient_email: email(), email_config: config, extra: 1 } }), "body contains unknown properties: extra");
      expectSchemaError(
        await as(project, "admin", "/internal/send-test-email", { body: { recipient_email: email(), email_config: { ...config, secure: true } } }),
        "body.email_config contains unknown properties: secure",
      );
    });
  });

  describe("GET /internal/emails", () => {
    it("answers each sent email with exactly id, subject, sent_at_millis, to, sender_config and error", async () => {
      const project = await createTestProject(server);
      const invited = email();
      const sent = await as(project, "admin", "/internal/send-sign-in-invitation", { body: { email: invited, callback_url: "http://localhost:3000/handler/sign-in" } });
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({ success: true });
      const list = await as(project, "admin", "/internal/emails");
      expect(list.status).toBe(200);
      expect(Object.keys(list.body).sort()).toEqual(["is_paginated", "items"]);
      expect(list.body.items).toHaveLength(1);
      expect(list.body.items[0]).toEqual({
        id: expect.any(String),
        subject: expect.any(String),
        sent_at_millis: expect.any(Number),
        to: [invited],
        sender_config: { type: "shared", sender_email: server.env.emailSender },
        error: null,
      });
    });
  });

  describe("the OpenAPI document", () => {
    it("describes the contact-channel and email routes with their answers", async () => {
      const document = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
      const channel = document.paths["/contact-channels/{user_id}/{contact_channel_id}"];
      expect(Object.keys(channel).sort()).toEqual(["delete", "get", "patch"]);
      expect(channel.get.responses["200"].content["application/json"].schema.required).toEqual(
        expect.arrayContaining(["id", "user_id", "type", "value", "is_primary", "is_verified", "used_for_auth"]),
      );
      const legacy = document.paths["/contact-channels/send-verification-code"].post;
      expect(legacy.deprecated).toBe(true);
      expect(legacy.security.every((alternative: Record<string, unknown>) => "AccessToken" in alternative)).toBe(true);
      expect(document.paths["/check-feature-support"].post.responses["200"].content).toHaveProperty("text/plain");
      for (const path of ["/emails/notification-preference/{user_id}", "/emails/send-email", "/emails/unsubscribe-link", "/internal/emails", "/internal/send-test-email", "/internal/send-sign-in-invitation"]) {
        expect(document.paths, path).toHaveProperty([path]);
      }
    });
  });

  /** A port on 127.0.0.1 with nothing listening. */
  async function closedPort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return port;
  }
});

// Issue 13 §1: `POST /check-feature-support`, which the reference SDK calls before it throws at a developer
// who used a feature it does not support, answers every caller 200 with a text naming the feature.
describe("POST /check-feature-support", () => {
  const unsupported = (feature: string) => `${feature} is not yet supported. Please reach out to Stack support for more information.`;

  function expectText(response: { status: number; text: string; headers: Headers }, text: string) {
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(response.text).toBe(text);
  }

  it("answers without any authentication", async () => {
    expectText(await api(server.url, "/check-feature-support", { method: "POST", body: { feature_name: "Payments" } }), unsupported("Payments"));
  });

  it("answers every access type the same, signed in or not", async () => {
    const project = await createTestProject(server);
    const signedUp = await as(project, "client", "/auth/password/sign-up", { body: { email: email(), password: "correct horse" } });
    for (const access of ["client", "server", "admin"] as const) {
      expectText(await as(project, access, "/check-feature-support", { body: { feature_name: "Data vault" } }), unsupported("Data vault"));
    }
    expectText(await as(project, "client", "/check-feature-support", { body: { feature_name: "Data vault" }, tokens: signedUp.body }), unsupported("Data vault"));
  });

  it("takes the SDK's body: its options with the feature's `name`, any other keys included", async () => {
    expectText(
      await api(server.url, "/check-feature-support", { method: "POST", body: { name: "sendVerificationEmail() on ServerUser", extra: { nested: true } } }),
      unsupported("sendVerificationEmail() on ServerUser"),
    );
    expectText(await api(server.url, "/check-feature-support", { method: "POST", body: { feature_name: "A", name: "B" } }), unsupported("A"));
    expectText(await api(server.url, "/check-feature-support", { method: "POST", body: {} }), unsupported("This feature"));
    expectText(await api(server.url, "/check-feature-support", { method: "POST" }), unsupported("This feature"));
  });

  it("is answered under /api/latest too", async () => {
    const response = await fetch(`${server.url}/api/latest/check-feature-support`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ feature_name: "X" }) });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(unsupported("X"));
  });

  it("refuses a feature_name that is not a string", async () => {
    expectSchemaError(await api(server.url, "/check-feature-support", { method: "POST", body: { feature_name: 5 } }), "body.feature_name must be a `string` type");
  });

  it("is what the published SDK throws for a feature it does not support", async () => {
    const project = await createTestProject(server);
    const created = await as(project, "server", "/users", { method: "POST", body: { primary_email: email() } });
    expect(created.status).toBe(201);
    const user = await stackSdk(server, project).server().getUser(created.body.id);
    // ServerUser.sendVerificationEmail() is one the SDK reports through /check-feature-support.
    await expect(user!.sendVerificationEmail()).rejects.toThrow(unsupported("sendVerificationEmail() on ServerUser"));
  });
});
