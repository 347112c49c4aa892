import { StackAdminApp } from "@stackframe/js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./support/api.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { renderProjectConfig, type ConfigObject } from "../src/config/project-config.js";
import { getProject } from "../src/services/projects.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const as = (project: TestProject, access: "client" | "server" | "admin", path: string, request: { method?: string; body?: unknown } = {}) =>
  api(server.url, path, { ...request, headers: project.headers(access) });

const readConfig = async (project: TestProject) => JSON.parse((await as(project, "admin", "/internal/config")).body.config_string);

describe("the current project", () => {
  it("shows every caller the public shape, without secrets", async () => {
    const project = await createTestProject(server, "Acme");
    for (const access of ["client", "server", "admin"] as const) {
      const response = await as(project, access, "/projects/current");
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: project.projectId,
        display_name: "Acme",
        config: {
          sign_up_enabled: true,
          credential_enabled: true,
          magic_link_enabled: false,
          passkey_enabled: false,
          client_team_creation_enabled: false,
          client_user_deletion_enabled: false,
          allow_user_api_keys: false,
          allow_team_api_keys: false,
          enabled_oauth_providers: [],
        },
      });
    }
  });

  it("shows admins the legacy config shape", async () => {
    const project = await createTestProject(server, "Legacy");
    const response = await as(project, "admin", "/internal/projects/current");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: project.projectId, display_name: "Legacy", is_production_mode: false, description: "" });
    expect(response.body.config).toMatchObject({ allow_localhost: true, domains: [], oauth_account_merge_strategy: "link_method", email_config: { type: "shared" } });
  });

  it("round-trips an admin update of fields and legacy config", async () => {
    const project = await createTestProject(server);
    const update = {
      display_name: "Renamed",
      description: "About it",
      config: {
        sign_up_enabled: false,
        magic_link_enabled: true,
        allow_localhost: false,
        client_team_creation_enabled: true,
        domains: [{ domain: "https://app.example.com", handler_path: "/auth" }],
        oauth_providers: [{ id: "github", type: "standard", client_id: "cid", client_secret: "secret" }],
        email_config: { type: "standard", host: "smtp.example.com", port: 587, username: "u", password: "p", sender_name: "Acme", sender_email: "noreply@example.com" },
      },
    };
    const patched = await as(project, "admin", "/internal/projects/current", { method: "PATCH", body: update });
    expect(patched.status).toBe(200);
    const read = await as(project, "admin", "/internal/projects/current");
    expect(read.body).toEqual(patched.body);
    expect(read.body).toMatchObject({ display_name: "Renamed", description: "About it" });
    expect(read.body.config).toMatchObject({
      sign_up_enabled: false,
      magic_link_enabled: true,
      allow_localhost: false,
      client_team_creation_enabled: true,
      domains: [{ domain: "https://app.example.com", handler_path: "/auth" }],
      email_config: update.config.email_config,
    });
    expect(read.body.config.oauth_providers).toEqual([expect.objectContaining({ id: "github", type: "standard", client_id: "cid" })]);
    // The client secret is write-only (issue 15): stored and used, never read back.
    expect(JSON.stringify(read.body)).not.toContain('"secret"');
    expect((await readConfig(project)).auth.oauth.providers.github).toMatchObject({ type: "github", clientId: "cid" });
    expect((await readConfig(project)).auth.oauth.providers.github.clientSecret).toBeUndefined();
    const stored = renderProjectConfig((await getProject(server.db, project.projectId)).config_override as ConfigObject);
    expect(stored.auth.oauth.providers.github?.clientSecret).toBe("secret");

    const publicView = await as(project, "client", "/projects/current");
    expect(publicView.body.config).toMatchObject({ sign_up_enabled: false, magic_link_enabled: true, enabled_oauth_providers: [{ id: "github" }] });
    expect(JSON.stringify(publicView.body)).not.toContain("secret");

    const config = await readConfig(project);
    expect(config.auth.allowSignUp).toBe(false);
    expect(config.domains.allowLocalhost).toBe(false);
  });

  it("rejects an invalid admin update without changing anything", async () => {
    const project = await createTestProject(server, "Unchanged");
    const response = await as(project, "admin", "/internal/projects/current", {
      method: "PATCH",
      body: { display_name: "Changed", config: { email_config: { type: "standard", host: "smtp.example.com", port: 70000 } } },
    });
    expect(response.status).toBe(400);
    expect((await as(project, "admin", "/internal/projects/current")).body.display_name).toBe("Unchanged");
  });

  it("keeps projects apart: an admin key of one project does not work for another", async () => {
    const one = await createTestProject(server);
    const other = await createTestProject(server);
    const response = await api(server.url, "/internal/projects/current", { headers: { ...one.headers("admin"), "x-stack-super-secret-admin-key": other.superSecretAdminKey } });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: "INVALID_SUPER_SECRET_ADMIN_KEY", details: { project_id: one.projectId } });
  });

  it("deletes a project and everything it owns; its keys stop working", async () => {
    const project = await createTestProject(server);
    expect((await as(project, "admin", "/internal/projects/current", { method: "DELETE" })).body).toEqual({ success: true });
    const after = await as(project, "client", "/projects/current");
    expect(after.body).toMatchObject({ code: "CURRENT_PROJECT_NOT_FOUND", details: { project_id: project.projectId } });
    const keys = await server.db.selectFrom("api_key_sets").select("id").where("project_id", "=", project.projectId).execute();
    expect(keys).toEqual([]);
  });

  it("refuses to delete the internal project", async () => {
    const response = await api(server.url, "/internal/projects/current", { access: "admin", method: "DELETE" });
    expect(response.status).toBe(400);
    expect((await api(server.url, "/projects/current", { access: "client" })).body.id).toBe("internal");
  });
});

describe("config overrides", () => {
  it("merges dotted keys over the stored config", async () => {
    const project = await createTestProject(server);
    const override = { "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true }, "teams.allowClientTeamCreation": true };
    const response = await as(project, "admin", "/internal/config/override", { method: "PATCH", body: { config_override_string: JSON.stringify(override) } });
    expect(response.status).toBe(200);
    const config = await readConfig(project);
    expect(config.auth.oauth.providers.github).toMatchObject({ type: "github", isShared: true, allowSignIn: true });
    expect(config.teams.allowClientTeamCreation).toBe(true);

    const second = { "auth.allowSignUp": false };
    await as(project, "admin", "/internal/config/override", { method: "PATCH", body: { config_override_string: JSON.stringify(second) } });
    const merged = await readConfig(project);
    expect(merged.auth.allowSignUp).toBe(false);
    expect(merged.auth.oauth.providers.github.type).toBe("github");
    expect((await as(project, "client", "/projects/current")).body.config).toMatchObject({ sign_up_enabled: false, client_team_creation_enabled: true, enabled_oauth_providers: [{ id: "github" }] });
  });

  it.each([
    ["not JSON", "{oops", "Invalid config JSON"],
    // The reference's wording, prefixed with the stage that refused it (issue 33).
    ["an unknown key", JSON.stringify({ "auth.foo": true }), '[ERROR] The key "auth.foo" is not valid for the schema.'],
    ["a value of the wrong type", JSON.stringify({ "auth.allowSignUp": "yes" }), "[ERROR] auth.allowSignUp must be a `boolean` type, but the final value was: `\"yes\"`."],
    ["an array", "[]", "[ERROR] Config override must be plain old JavaScript object."],
  ])("rejects an override with %s and changes nothing", async (_name, overrideString, message) => {
    const project = await createTestProject(server);
    const before = await readConfig(project);
    const response = await as(project, "admin", "/internal/config/override", { method: "PATCH", body: { config_override_string: overrideString } });
    expect(response.status).toBe(400);
    expect(response.text).toBe(message);
    expect(await readConfig(project)).toEqual(before);
  });

  it("is admin only", async () => {
    const project = await createTestProject(server);
    const response = await as(project, "server", "/internal/config");
    expect(response.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
  });
});

describe("production-mode checks through the published Stack SDK", () => {
  it("reports each domain problem with its exact message and a fix link to the domains page", async () => {
    const project = await createTestProject(server);
    await as(project, "admin", "/internal/projects/current", {
      method: "PATCH",
      body: {
        is_production_mode: true,
        config: {
          allow_localhost: true,
          domains: [
            { domain: "http://localhost:3000", handler_path: "/handler" },
            { domain: "https://10.0.0.1", handler_path: "/handler" },
            { domain: "http://app.example.com", handler_path: "/handler" },
            { domain: "https://ok.example.com", handler_path: "/handler" },
          ],
        },
      },
    });
    const app = new StackAdminApp({
      baseUrl: server.url,
      projectId: project.projectId,
      publishableClientKey: project.publishableClientKey,
      secretServerKey: project.secretServerKey,
      superSecretAdminKey: project.superSecretAdminKey,
      tokenStore: "memory",
    });
    const sdkProject = await app.getProject();
    expect(sdkProject.isProductionMode).toBe(true);
    const fix = `/projects/${project.projectId}/domains`;
    expect(await sdkProject.getProductionModeErrors()).toEqual([
      { message: "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings", relativeFixUrl: fix },
      // The SDK goes through the domains as the project read lists them: by domain.
      { message: "Trusted domains should be HTTPS: http://app.example.com", relativeFixUrl: fix },
      { message: "Localhost domains are not allowed to be trusted in production mode: http://localhost:3000", relativeFixUrl: fix },
      { message: "Direct IPs are not valid for trusted domains in production mode: https://10.0.0.1", relativeFixUrl: fix },
    ]);
  });
});
