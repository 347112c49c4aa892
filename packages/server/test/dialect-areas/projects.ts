import { describe, expect, it } from "vitest";
import { WELL_KNOWN_DEV_KEYS } from "../../src/env.js";
import { findProject } from "../../src/services/projects.js";
import { signInUser } from "../../src/services/sessions.js";
import { getProject } from "../../src/services/projects.js";
import { createUser } from "../../src/services/users.js";
import { api, type ApiResponse } from "../support/api.js";
import { createTestProject, type TestProject } from "../support/test-server.js";
import { server } from "../support/users-fixture.js";

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
      const tokens = await signInUser(server.db, server.env, { project: await getProject(server.db, "internal"), userId: user.id });
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
