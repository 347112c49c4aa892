import { adminProjectRead, adminProjectUpdateBody, clientProjectRead, type AdminProjectConfigUpdate } from "@latchkey/protocol/schemas";
import {
  applyOrganizationDefaults,
  environmentConfigSchema,
  getConfigOverrideErrors,
  sanitizeOrganizationConfig,
} from "@stackframe/stack-shared/dist/config/schema";
import { normalize as referenceNormalize, override as referenceOverride } from "@stackframe/stack-shared/dist/config/format";
import { getProductionModeErrors } from "@stackframe/stack-shared/dist/helpers/production-mode";
import { describe, expect, it } from "vitest";
import { normalizeConfig, overrideConfig, type ConfigObject } from "../src/config/config-format.js";
import { legacyConfigUpdateToOverride, renderAdminProjectRead, renderClientProjectRead, toAdminProjectConfigRead } from "../src/config/legacy-config.js";
import { getProductionModeProblems } from "../src/config/production-checks.js";
import {
  applyConfigOverride,
  defaultProjectConfig,
  parseConfigOverrideString,
  renderConfigRead,
  renderProjectConfig,
  validateProjectConfig,
} from "../src/config/project-config.js";
import { isRedirectUrlTrusted, matchHostnamePattern, validateTrustedDomain } from "../src/config/trusted-domains.js";

const PROJECT_ID = "0b7c3a52-2f43-4b8e-9c51-6f0f3c8f4a11";
const project = {
  id: PROJECT_ID,
  display_name: "Acme",
  description: null,
  created_at: new Date("2024-05-01T00:00:00Z"),
  is_production_mode: false,
  owner_team_id: null,
  logo_url: null,
  full_logo_url: null,
  logo_dark_mode_url: null,
  logo_full_dark_mode_url: null,
  is_development_environment: false,
  onboarding_status: "completed",
};

describe("config overrides with dotted paths", () => {
  it("a dotted key sets one nested field and keeps its siblings at their defaults", () => {
    const config = applyConfigOverride(defaultProjectConfig(), { "auth.password.allowSignIn": true });
    expect(config.auth.password.allowSignIn).toBe(true);
    expect(config.auth.allowSignUp).toBe(true);
    expect(config.auth.otp.allowSignIn).toBe(false);
    expect(config.auth.oauth.accountMergeStrategy).toBe("link_method");
  });

  it("a new key replaces stored keys beneath it but keeps keys above it", () => {
    const stored: ConfigObject = { "auth.allowSignUp": false, "auth.otp.allowSignIn": true, teams: { allowClientTeamCreation: true } };
    const merged = overrideConfig(stored, { auth: { password: { allowSignIn: true } }, "teams.createPersonalTeamOnSignUp": true });
    expect(merged).toEqual({
      teams: { allowClientTeamCreation: true },
      auth: { password: { allowSignIn: true } },
      "teams.createPersonalTeamOnSignUp": true,
    });
    const config = renderProjectConfig(merged);
    expect(config.auth.allowSignUp).toBe(true);
    expect(config.auth.otp.allowSignIn).toBe(false);
    expect(config.auth.password.allowSignIn).toBe(true);
    expect(config.teams).toEqual({ allowClientTeamCreation: true, createPersonalTeamOnSignUp: true });
  });

  it("applies shallow keys before deep ones whatever their order in the override", () => {
    const config = renderProjectConfig({
      "auth.oauth.providers.github.clientId": "id-1",
      "auth.oauth": { accountMergeStrategy: "raise_error", providers: { github: { type: "github", isShared: false } } },
    });
    expect(config.auth.oauth.accountMergeStrategy).toBe("raise_error");
    expect(config.auth.oauth.providers.github).toEqual({
      type: "github", isShared: false, clientId: "id-1", allowSignIn: false, allowConnectedAccounts: false,
    });
  });

  it("creates a record entry reached by a dotted key, with the entry's defaults", () => {
    const config = renderProjectConfig({ "domains.trustedDomains.main.baseUrl": "https://app.example.com" });
    expect(config.domains.trustedDomains.main).toEqual({ baseUrl: "https://app.example.com", handlerPath: "/handler" });
  });

  it("null removes a record entry and puts a value back to its default", () => {
    const stored = overrideConfig(
      { "auth.allowSignUp": false, "auth.oauth.providers.github": { type: "github", allowSignIn: true } },
      { "auth.oauth.providers.github": null, "auth.allowSignUp": null },
    );
    const config = renderProjectConfig(stored);
    expect(config.auth.oauth.providers).toEqual({});
    expect(config.auth.allowSignUp).toBe(true);
  });

  it("merges and normalizes exactly like the protocol's reference format", () => {
    const stored = { auth: { allowSignUp: false }, "auth.otp.allowSignIn": true, "domains.trustedDomains.a": { baseUrl: "https://a.com" } };
    const incoming = { "auth.otp": { allowSignIn: false }, "domains.trustedDomains.a": null, "domains.trustedDomains.b.baseUrl": "https://b.com" };
    expect(overrideConfig(stored, incoming)).toEqual(referenceOverride(stored, incoming));
    const merged = overrideConfig(stored, incoming);
    const options = { onDotIntoNull: "empty-object", onDotIntoNonObject: "ignore" } as const;
    expect(normalizeConfig(merged, { onDotIntoMissing: "empty-object", onDotIntoNonObject: "ignore" })).toEqual(referenceNormalize(merged, options));
  });

  it("refuses by default to dot into a missing key or a value that is not an object", () => {
    expect(() => normalizeConfig({ "auth.allowSignUp": true })).toThrow(/"auth" doesn't exist on the object/);
    expect(() => normalizeConfig({ auth: { allowSignUp: true }, "auth.allowSignUp.x": 1 })).toThrow(/"allowSignUp" is not an object/);
  });

  it("never writes through __proto__ keys", () => {
    const config = renderProjectConfig(JSON.parse('{"auth.oauth.providers.__proto__": {"type": "github"}}') as ConfigObject);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
    expect(Object.keys(config.auth.oauth.providers)).toEqual(["__proto__"]);
  });

  it("renders the same complete config as the protocol's reference (e-mail themes and templates aside)", async () => {
    const overrides: ConfigObject[] = [{}, {
      "auth.oauth.providers.github": { type: "github", allowSignIn: true },
      "rbac.permissions.admin": { description: "Administers" },
      "rbac.defaultPermissions.teamCreator": { admin: true },
      "payments.offers.pro": { prices: { monthly: { USD: "5", interval: [1, "month"] } }, includedItems: { seats: { quantity: 3 } }, isAddOnTo: { base: true } },
      "payments.offers.free": { prices: "include-by-default" },
      "payments.items.seats": { customerType: "team" },
      "dataVault.stores.secrets": {},
      "workflows.availableWorkflows.welcome": { enabled: true },
      "domains.trustedDomains.main.baseUrl": "https://app.example.com",
      "emails.server": { isShared: false, host: "smtp.example.com" },
    }];
    for (const override of overrides) {
      const normalized = referenceNormalize(override, { onDotIntoNull: "empty-object" });
      const reference = await sanitizeOrganizationConfig(applyOrganizationDefaults(normalized as Parameters<typeof applyOrganizationDefaults>[0]));
      const strip = (c: unknown) => {
        const copy = JSON.parse(JSON.stringify(c)) as { emails: Record<string, unknown> };
        delete copy.emails.themes;
        delete copy.emails.templates;
        return copy;
      };
      expect(strip(renderProjectConfig(override))).toEqual(strip(reference));
    }
  });

  it("renders GET /internal/config as a camelCase JSON string", () => {
    const body = renderConfigRead(defaultProjectConfig());
    const parsed = JSON.parse(body.config_string) as Record<string, unknown>;
    expect(Object.keys(parsed).sort()).toEqual(
      ["apiKeys", "auth", "dataVault", "domains", "emails", "payments", "rbac", "sourceOfTruth", "teams", "users", "workflows"],
    );
    expect(parsed.sourceOfTruth).toEqual({ type: "hosted" });
  });
});

describe("invalid config overrides", () => {
  // Each of these must be refused with the very message the protocol's reference validator gives.
  const referenceCases: unknown[] = [
    null,
    [],
    "auth",
    { "bad key!": 1 },
    { auth: { "-x": 1 } },
    { "auth.foo": true },
    { sourceOfTruth: { type: "hosted" } },
    { "auth.allowSignUp.x": true },
    { "auth.allowSignUp": "yes" },
    { "emails.server.port": "587" },
    { "auth.oauth.accountMergeStrategy": "nope" },
    { "auth.password": { allowSignIn: true, foo: 1 } },
    { auth: { password: { allowSignIn: 1 } } },
    { auth: [] },
    { "auth.oauth.providers.GitHub": {} },
    { "auth.oauth.providers": { github: { type: "nope" } } },
    { "auth.oauth.providers": { github: 5 } },
    { "rbac.defaultPermissions.teamCreator": { a: 1 } },
    { "emails.themes": { x: {} } },
    { "payments.offers.o.prices": 5 },
    { "payments.offers.o.prices": { p: { USD: 5 } } },
    { "payments.offers.o.freeTrial": [1] },
    { "payments.offers.o.freeTrial": [1, "day", 3] },
  ];
  it.each(referenceCases.map((c) => [JSON.stringify(c), c]))("refuses %s with the protocol's message", async (_, override) => {
    const reference = await getConfigOverrideErrors(environmentConfigSchema, override);
    expect(reference.status).toBe("error");
    const ours = validateProjectConfig(override);
    expect(ours).toEqual({ ok: false, error: reference.status === "error" ? reference.error : "" });
  });

  it("names the key that is not part of the config", () => {
    expect(validateProjectConfig({ "auth.foo": true })).toEqual({ ok: false, error: 'The key "auth.foo" is not valid for the schema.' });
  });

  it("refuses a config_override_string that is not JSON", () => {
    expect(parseConfigOverrideString("{nope")).toEqual({ ok: false, error: "Invalid config JSON" });
  });

  it("refuses trusted domains and SMTP settings that could never work", () => {
    expect(validateProjectConfig({ "domains.trustedDomains.a": { baseUrl: "javascript:alert(1)" } })).toEqual({
      ok: false, error: "domains.trustedDomains.a.baseUrl must start with http:// or https://",
    });
    expect(validateProjectConfig({ "domains.trustedDomains.a.handlerPath": "handler" })).toEqual({ ok: false, error: "Handler path must start with /" });
    expect(validateProjectConfig({ "emails.server.port": 70000 })).toEqual({ ok: false, error: "emails.server.port must be less than or equal to 65535" });
    expect(validateProjectConfig({ "emails.server.senderEmail": "x@y" })).toEqual({ ok: false, error: "emails.server.senderEmail must be a valid email" });
  });

  it("accepts a valid override, including nulls that remove entries", () => {
    const override = {
      "auth.allowSignUp": false,
      "auth.oauth.providers.github": { type: "github", isShared: false, clientId: "a", clientSecret: "b", allowSignIn: true },
      "domains.trustedDomains.main": { baseUrl: "https://*.example.com", handlerPath: "/auth" },
      "domains.trustedDomains.old": null,
      "payments.offers.pro.prices.monthly": { USD: "9.99", interval: [1, "month"] },
    };
    expect(validateProjectConfig(override)).toEqual({ ok: true, override });
    expect(parseConfigOverrideString(JSON.stringify(override))).toEqual({ ok: true, override });
  });
});

describe("the legacy project config", () => {
  const update: AdminProjectConfigUpdate = {
    allow_localhost: false,
    sign_up_enabled: false,
    credential_enabled: true,
    magic_link_enabled: true,
    passkey_enabled: true,
    client_team_creation_enabled: true,
    client_user_deletion_enabled: true,
    allow_user_api_keys: true,
    allow_team_api_keys: true,
    oauth_providers: [
      { id: "github", type: "standard", client_id: "gh-id", client_secret: "gh-secret" },
      { id: "google", type: "shared" },
      { id: "microsoft", type: "standard", client_id: "ms-id", client_secret: "ms-secret", microsoft_tenant_id: "tenant" },
    ],
    domains: [
      { domain: "https://app.example.com", handler_path: "/handler" },
      { domain: "https://*.example.org", handler_path: "/auth" },
    ],
    email_config: {
      type: "standard", host: "smtp.example.com", port: 587, username: "mailer",
      password: "pw", sender_name: "Acme", sender_email: "noreply@example.com",
    },
    email_theme: "a0172b5d-cff0-463b-83bb-85124697373a",
    create_team_on_sign_up: true,
    team_creator_default_permissions: [{ id: "$update_team" }, { id: "admin" }],
    team_member_default_permissions: [{ id: "$read_members" }],
    user_default_permissions: [{ id: "reader" }],
    oauth_account_merge_strategy: "raise_error",
  };

  it("reads back a legacy update after it went through the override and the rendered config", () => {
    expect(adminProjectUpdateBody.safeParse({ config: update }).success).toBe(true);
    const override = legacyConfigUpdateToOverride(update);
    expect(validateProjectConfig(override).ok).toBe(true);
    const read = toAdminProjectConfigRead(renderProjectConfig(override));
    const { oauth_providers, enabled_oauth_providers, ...rest } = read;
    const { oauth_providers: sentProviders, domains: sentDomains, ...sentRest } = update;
    const { domains, ...restWithoutDomains } = rest;
    expect(restWithoutDomains).toEqual(sentRest);
    // Domains come back sorted by domain, as the protocol lists them.
    expect(domains).toEqual([...(sentDomains ?? [])].sort((a, b) => (a.domain < b.domain ? -1 : 1)));
    expect(domains.map((d) => d.domain)).toEqual(["https://*.example.org", "https://app.example.com"]);
    // Client secrets are write-only: everything else comes back as sent.
    expect(oauth_providers.map(({ provider_config_id, ...p }) => p)).toEqual(sentProviders!.map(({ client_secret, ...p }) => p));
    expect(oauth_providers.map((p) => p.provider_config_id)).toEqual(["github", "google", "microsoft"]);
    expect(enabled_oauth_providers).toEqual([{ id: "github" }, { id: "google" }, { id: "microsoft" }]);
  });

  it("changes only what a partial legacy update names", () => {
    const stored = legacyConfigUpdateToOverride(update);
    const merged = overrideConfig(stored, legacyConfigUpdateToOverride({ sign_up_enabled: true, domains: [] }));
    const read = toAdminProjectConfigRead(renderProjectConfig(merged));
    expect(read.sign_up_enabled).toBe(true);
    expect(read.domains).toEqual([]);
    expect(read.oauth_providers).toHaveLength(3);
    expect(read.email_config.type).toBe("standard");
  });

  it("renders the admin and client project reads in the protocol's shapes", () => {
    const config = renderProjectConfig(legacyConfigUpdateToOverride(update));
    const admin = renderAdminProjectRead(project, config);
    expect(adminProjectRead.parse(admin)).toEqual(admin);
    expect(admin.description).toBe("");
    expect(admin.created_at_millis).toBe(Date.parse("2024-05-01T00:00:00Z"));
    const client = renderClientProjectRead(project, config);
    expect(clientProjectRead.parse(client)).toEqual(client);
    expect(client.config.enabled_oauth_providers).toEqual([{ id: "github" }, { id: "google" }, { id: "microsoft" }]);
    expect(JSON.stringify(client)).not.toContain("secret");
  });

  it("reads a new project's defaults", () => {
    const read = toAdminProjectConfigRead(defaultProjectConfig());
    expect(read).toMatchObject({
      allow_localhost: false, sign_up_enabled: true, credential_enabled: false, magic_link_enabled: false,
      oauth_providers: [], domains: [], email_config: { type: "shared" }, oauth_account_merge_strategy: "link_method",
    });
  });

  it("refuses unknown properties in an admin project update", () => {
    expect(adminProjectUpdateBody.safeParse({ display_name: "x", color: "red" }).success).toBe(false);
    expect(adminProjectUpdateBody.safeParse({ config: { sign_up_enabled: true, foo: 1 } }).success).toBe(false);
    expect(adminProjectUpdateBody.safeParse({ config: { email_config: { type: "standard", host: "h" } } }).success).toBe(false);
    expect(adminProjectUpdateBody.safeParse({ config: { domains: [{ domain: "ftp://x.com", handler_path: "/h" }] } }).success).toBe(false);
    expect(adminProjectUpdateBody.safeParse({ logo_url: "x".repeat(1_000_001) }).success).toBe(false);
    expect(adminProjectUpdateBody.safeParse({ description: null, logo_url: null, config: {} }).success).toBe(true);
  });
});

describe("production-mode checks", () => {
  const configWith = (allowLocalhost: boolean, domains: string[]) =>
    renderProjectConfig({
      "domains.allowLocalhost": allowLocalhost,
      "domains.trustedDomains": Object.fromEntries(domains.map((d, i) => [`d${i}`, { baseUrl: d }])),
    });
  const fix = `/projects/${PROJECT_ID}/domains`;

  it("reports every problem with its message and a link to the domains page", () => {
    const config = configWith(true, [
      "not a url", "http://localhost:3000", "https://127.0.0.1", "http://10.0.0.1", "http://app.example.com", "https://ok.example.com",
    ]);
    expect(getProductionModeProblems({ projectId: PROJECT_ID, config })).toEqual([
      { message: "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings", relativeFixUrl: fix },
      // The domains in the order the project read lists them: by domain.
      { message: "Direct IPs are not valid for trusted domains in production mode: http://10.0.0.1", relativeFixUrl: fix },
      { message: "Trusted domains should be HTTPS: http://app.example.com", relativeFixUrl: fix },
      { message: "Localhost domains are not allowed to be trusted in production mode: http://localhost:3000", relativeFixUrl: fix },
      { message: "Localhost domains are not allowed to be trusted in production mode: https://127.0.0.1", relativeFixUrl: fix },
      { message: "Trusted domain is not a valid URL: not a url", relativeFixUrl: fix },
    ]);
  });

  it("has nothing to report for an HTTPS-only project without localhost", () => {
    const config = configWith(false, ["https://app.example.com", "https://*.example.org"]);
    expect(getProductionModeProblems({ projectId: PROJECT_ID, config })).toEqual([]);
  });

  it("agrees with what the published SDK computes from our admin project read", () => {
    const config = configWith(true, ["http://localhost", "https://1.2.3.4", "http://x.example.com", "https://*.example.com"]);
    const admin = renderAdminProjectRead(project, config);
    const sdk = getProductionModeErrors(admin as Parameters<typeof getProductionModeErrors>[0]);
    expect(getProductionModeProblems({ projectId: PROJECT_ID, config })).toEqual(sdk);
  });
});

describe("trusted domains", () => {
  it.each([
    "https://example.com",
    "http://localhost:3000",
    "https://app.example.com/base",
    "https://*.example.com",
    "https://**.example.com",
    "https://api-*.example.com",
  ])("accepts %s", (domain) => {
    expect(validateTrustedDomain(domain)).toBeUndefined();
  });

  it.each([
    ["https://exa mple.com", "domain contains spaces"],
    ["ftp://example.com", "domain must start with http:// or https://"],
    ["javascript:alert(1)", "domain must start with http:// or https://"],
    ["example.com", "domain must start with http:// or https://"],
    ["https://example.com/*", "domain is not a valid URL or wildcard URL pattern"],
    ["https://*.example.com?x=*", "domain is not a valid URL or wildcard URL pattern"],
    ["https://*.exa_mple.com", "domain is not a valid URL or wildcard URL pattern"],
    ["https://*..example.com", "domain is not a valid URL or wildcard URL pattern"],
    ["https://*.example.com.", "domain is not a valid URL or wildcard URL pattern"],
    ["https://.example.com", "domain host must not start or end with a dot"],
    ["https://a..example.com", "domain host must not contain two dots in a row"],
    ["https://user:pw@example.com", "domain must not contain credentials"],
  ])("refuses %s", (domain, message) => {
    expect(validateTrustedDomain(domain)).toBe(message);
  });

  it("matches one label with * and any number of labels with **", () => {
    expect(matchHostnamePattern("*.example.com", "app.example.com")).toBe(true);
    expect(matchHostnamePattern("*.example.com", "a.b.example.com")).toBe(false);
    expect(matchHostnamePattern("*.example.com", "example.com")).toBe(false);
    expect(matchHostnamePattern("**.example.com", "a.b.example.com")).toBe(true);
    expect(matchHostnamePattern("*.example.com", "evil.com.example.com.evil.com")).toBe(false);
  });
});

describe("redirect URLs", () => {
  const options = {
    trustedDomains: ["https://trusted.com", "https://*.apps.example.com", "https://example.org/app"],
    allowLocalhost: false,
  };

  it.each([
    "https://trusted.com",
    "https://trusted.com/after/sign-in?x=1#y",
    "https://TRUSTED.com/",
    "https://trusted.com:443/x",
    "https://one.apps.example.com/handler",
    "https://example.org/app",
    "https://example.org/app/settings",
  ])("trusts %s", (url) => {
    expect(isRedirectUrlTrusted(url, options)).toBe(true);
  });

  it.each([
    "https://evil.com@trusted.com",
    "https://trusted.com@evil.com",
    "https://trusted.com:pw@evil.com",
    "//evil.com",
    "///evil.com",
    "/\\evil.com",
    "\\\\evil.com",
    "https:evil.com",
    "https:trusted.com",
    "https:/trusted.com",
    "javascript:alert(1)",
    "JavaScript://trusted.com/%0aalert(1)",
    "data:text/html,<script>alert(1)</script>",
    "http://trusted.com",
    "https://trusted.com:8443",
    "https://trusted.com.evil.com",
    "https://eviltrusted.com",
    "https://trusted.com.",
    "https://a.b.apps.example.com",
    "https://apps.example.com",
    "https://example.org/application",
    "https://example.org/",
    " https://trusted.com",
    "https://trusted.com\t.evil.com",
    "java\nscript:alert(1)",
    "http://localhost:3000",
    "/relative/without/base",
    "",
  ])("does not trust %j", (url) => {
    expect(isRedirectUrlTrusted(url, options)).toBe(false);
  });

  it("trusts relative same-origin paths only when a base origin is given", () => {
    const withBase = { ...options, baseOrigin: "https://app.example.net" };
    expect(isRedirectUrlTrusted("/dashboard?tab=1", withBase)).toBe(true);
    expect(isRedirectUrlTrusted("dashboard", withBase)).toBe(true);
    expect(isRedirectUrlTrusted("//evil.com/x", withBase)).toBe(false);
    expect(isRedirectUrlTrusted("/\\evil.com", withBase)).toBe(false);
    expect(isRedirectUrlTrusted("/dashboard", options)).toBe(false);
  });

  it("trusts localhost only when the project allows it", () => {
    const local = { ...options, allowLocalhost: true };
    expect(isRedirectUrlTrusted("http://localhost:3000/x", local)).toBe(true);
    expect(isRedirectUrlTrusted("http://app.localhost/x", local)).toBe(true);
    expect(isRedirectUrlTrusted("http://127.0.0.1:8080", local)).toBe(true);
    expect(isRedirectUrlTrusted("http://localhost.evil.com", local)).toBe(false);
    expect(isRedirectUrlTrusted("http://localhost:3000/x", options)).toBe(false);
  });
});
