import { describe, expect, it } from "vitest";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { as, expectKnownError, server, useServerForFile } from "./support/users-fixture.js";

useServerForFile();

const readConfig = async (project: TestProject) => {
  const response = await as(project, "admin", "/internal/config");
  expect(response.status).toBe(200);
  return JSON.parse(response.body.config_string);
};
const patchOverride = (project: TestProject, text: string) => as(project, "admin", "/internal/config/override", { method: "PATCH", body: { config_override_string: text } });
const override = (project: TestProject, value: Record<string, unknown>) => patchOverride(project, JSON.stringify(value));

describe("the config as a document (issue 33)", () => {
  it("GET /internal/config is the complete rendered config, defaults included, for admins only", async () => {
    const project = await createTestProject(server);
    const config = await readConfig(project);
    expect(config.dataVault).toEqual({ stores: {} });
    expect(config.payments).toMatchObject({ groups: {}, offers: {}, items: {} });
    expect(config.auth).toMatchObject({ allowSignUp: true, oauth: { accountMergeStrategy: "link_method" } });
    expectKnownError(await as(project, "server", "/internal/config"), "INSUFFICIENT_ACCESS_TYPE", 401);
  });

  it("PATCH /internal/config/override answers {}: a dotted key replaces that key and all under it, null removes, defaults fill in", async () => {
    const project = await createTestProject(server);
    const first = await override(project, { "dataVault.stores.tokens": { displayName: "Tokens" }, "dataVault.stores.keys": {} });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({});
    expect((await readConfig(project)).dataVault.stores).toEqual({ tokens: { displayName: "Tokens" }, keys: { displayName: "Unnamed Vault" } });
    // "dataVault.stores" replaces the stored keys beneath it, then a null removes one entry.
    await override(project, { "dataVault.stores": { a: { displayName: "A" }, b: { displayName: "B" } } });
    await override(project, { "dataVault.stores.b": null, "dataVault.stores.a.displayName": "Renamed" });
    expect((await readConfig(project)).dataVault.stores).toEqual({ a: { displayName: "Renamed" } });
  });

  it("refuses with the reference's plain-text wording and changes nothing", async () => {
    const project = await createTestProject(server);
    const cases: [string, string][] = [
      ["{nope", "Invalid config JSON"],
      ['{"nonExistentField": 1}', '[ERROR] The key "nonExistentField" is not valid for the schema.'],
      ['{"auth.allowSignUp": "yes"}', '[ERROR] auth.allowSignUp must be a `boolean` type, but the final value was: `"yes"`.'],
      ["[1]", "[ERROR] Config override must be plain old JavaScript object."],
      ['{"payments.offers.pro.freeTrial": [7, null]}', "[FORMAT ERROR] Config is not normalizable. Tried to normalize a null value"],
      ['{"domains.trustedDomains.prod": {"baseUrl": "ftp://example.com", "handlerPath": "/handler"}}', "[WARNING] domains.trustedDomains.prod.baseUrl must start with http:// or https://"],
      ['{"dataVault.stores.9lives": {}}', '[ERROR] The key "dataVault.stores.9lives" is not valid for the schema.'],
      ['{"dataVault.stores.x y": {}}', "[ERROR] Invalid config format: All keys of override must consist of only alphanumeric characters"],
    ];
    const before = await readConfig(project);
    for (const [text, message] of cases) {
      const refused = await patchOverride(project, text);
      expect(refused.status, text).toBe(400);
      expect(refused.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(refused.text.startsWith(message), `${text}: ${refused.text}`).toBe(true);
    }
    expect(await readConfig(project)).toEqual(before);
  });

  it("takes an override over the general body limit (1.5 MB) and refuses one over 5 MB, sent at once or grown by patches", async () => {
    const project = await createTestProject(server);
    // This route's bodies may pass LATCHKEY_MAX_BODY_BYTES: the stored override's own 5 MB limit is what refuses.
    const big = (n: number) => "x".repeat(n * 1024 * 1024);
    const once = await override(project, { "dataVault.stores.big": { displayName: big(5) } });
    expect(once.status).toBe(400);
    expect(once.text).toMatch(/^\[ERROR\] The config override is too large: it would be \d+ bytes of JSON, and at most 5242880 \(5 MB\) are stored\.$/);
    expect((await override(project, { "dataVault.stores.a": { displayName: big(3) } })).status).toBe(200);
    const grown = await override(project, { "dataVault.stores.b": { displayName: big(3) } });
    expect(grown.status).toBe(400);
    expect(grown.text).toMatch(/^\[ERROR\] The config override is too large/);
    expect(Object.keys((await readConfig(project)).dataVault.stores)).toEqual(["a"]);
  });

  it("is one source of truth with the project settings routes: each side reads what the other wrote", async () => {
    const project = await createTestProject(server);
    // Project settings → config document.
    const legacy = await as(project, "admin", "/internal/projects/current", {
      method: "PATCH",
      body: { config: { sign_up_enabled: false, allow_localhost: false, domains: [{ domain: "https://app.example.com", handler_path: "/auth" }], client_team_creation_enabled: true } },
    });
    expect(legacy.status).toBe(200);
    const config = await readConfig(project);
    expect(config.auth.allowSignUp).toBe(false);
    expect(config.domains.allowLocalhost).toBe(false);
    expect(Object.values(config.domains.trustedDomains)).toEqual([{ baseUrl: "https://app.example.com", handlerPath: "/auth" }]);
    expect(config.teams.allowClientTeamCreation).toBe(true);

    // Config document → project settings (admin and client reads).
    await override(project, { "auth.allowSignUp": true, "teams.allowClientTeamCreation": false, "domains.trustedDomains": { second: { baseUrl: "https://second.example.com", handlerPath: "/handler" } } });
    const admin = (await as(project, "admin", "/internal/projects/current")).body.config;
    expect(admin).toMatchObject({ sign_up_enabled: true, client_team_creation_enabled: false, domains: [{ domain: "https://second.example.com", handler_path: "/handler" }] });
    expect((await as(project, "client", "/projects/current")).body.config).toMatchObject({ sign_up_enabled: true, client_team_creation_enabled: false });
  });

  it("makes and removes data vault stores: the vault's routes follow the config", async () => {
    const project = await createTestProject(server);
    const set = () => as(project, "server", "/data-vault/stores/made/set", { body: { hashed_key: "aw==", encrypted_value: "v" } });
    expectKnownError(await set(), "DATA_VAULT_STORE_DOES_NOT_EXIST", 400);
    await override(project, { "dataVault.stores.made": { displayName: "Made" } });
    expect((await set()).status).toBe(200);
    await override(project, { "dataVault.stores.made": null });
    expectKnownError(await set(), "DATA_VAULT_STORE_DOES_NOT_EXIST", 400);
  });
});
