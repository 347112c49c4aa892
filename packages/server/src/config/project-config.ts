import type { OAuthAccountMergeStrategy, OAuthProviderId } from "@latchkey/protocol/schemas";
import {
  type ConfigObject,
  type ConfigOverride,
  getOwn,
  hasOwn,
  normalizeConfig,
  overrideConfig,
  setOwn,
} from "./config-format.js";
import { checkConfigOverride, STAGE_PREFIX } from "./config-override-check.js";
import { BUILT_IN_EMAIL_THEMES, DEFAULT_LIGHT_EMAIL_THEME_ID } from "../email/built-in-themes.js";
import { BUILT_IN_EMAIL_TEMPLATES } from "../email/built-in-templates.js";
import { deepFreeze } from "../deep-freeze.js";

export type { ConfigObject, ConfigOverride, ConfigValue } from "./config-format.js";
export { ConfigNormalizationError, normalizeConfig, overrideConfig } from "./config-format.js";

/**
 * A project's complete config: what `GET /internal/config` renders (camelCase, as JSON in
 * `config_string`) and what the admin SDK's `project.getConfig()` returns. It is the stored override
 * (dotted keys allowed) layered over `defaultProjectConfig()`.
 */
export interface ProjectConfig {
  sourceOfTruth: { type: "hosted" } | { type: "neon"; connectionStrings: Record<string, string> } | { type: "postgres"; connectionString: string };
  rbac: {
    permissions: Record<string, { description?: string; scope?: "team" | "project"; containedPermissionIds: Record<string, true> }>;
    defaultPermissions: { teamCreator: Record<string, true>; teamMember: Record<string, true>; signUp: Record<string, true> };
  };
  apiKeys: { enabled: { team: boolean; user: boolean } };
  teams: { createPersonalTeamOnSignUp: boolean; allowClientTeamCreation: boolean };
  users: { allowClientUserDeletion: boolean };
  /**
   * Newer protocol (2.8.108) only, and absent until set: the older protocol's complete config has no
   * `onboarding`, and a default here would show in its `GET /internal/config`. Read it through
   * `requiresEmailVerification`.
   */
  onboarding?: { requireEmailVerification?: boolean };
  /** Newer protocol (2.8.108) only, absent until set, like `onboarding`. Read it through `requiresPublishableClientKey`. */
  project?: { requirePublishableClientKey?: boolean };
  domains: { allowLocalhost: boolean; trustedDomains: Record<string, TrustedDomainConfig> };
  auth: {
    allowSignUp: boolean;
    password: { allowSignIn: boolean };
    otp: { allowSignIn: boolean };
    passkey: { allowSignIn: boolean };
    oauth: { accountMergeStrategy: OAuthAccountMergeStrategy; providers: Record<string, OAuthProviderConfig> };
  };
  emails: {
    server: EmailServerConfig;
    selectedThemeId: string;
    themes: Record<string, { displayName: string; tsxSource: string }>;
    /** `themeId`: a theme id, `false` for no theme, absent for the selected theme. */
    templates: Record<string, { displayName: string; tsxSource: string; themeId?: string | false }>;
  };
  payments: {
    autoPay?: { interval: DayInterval };
    groups: Record<string, { displayName?: string }>;
    offers: Record<string, OfferConfig>;
    items: Record<string, { displayName: string; customerType: CustomerType }>;
  };
  dataVault: { stores: Record<string, { displayName: string }> };
  workflows: { availableWorkflows: Record<string, { displayName: string; tsSource: string; enabled: boolean }> };
}

export interface TrustedDomainConfig {
  /** e.g. `https://app.example.com` or `https://*.example.com`; entries without one are ignored. */
  baseUrl?: string;
  handlerPath: string;
}

export interface OAuthProviderConfig {
  /** Which provider; entries without a type are ignored. */
  type?: OAuthProviderId;
  /** Shared (development) credentials rather than the project's own `clientId`/`clientSecret`. */
  isShared: boolean;
  clientId?: string;
  clientSecret?: string;
  facebookConfigId?: string;
  microsoftTenantId?: string;
  allowSignIn: boolean;
  allowConnectedAccounts: boolean;
}

export interface EmailServerConfig {
  isShared: boolean;
  provider: "resend" | "smtp";
  host?: string;
  port?: number;
  username?: string;
  password?: string;
  senderName?: string;
  senderEmail?: string;
}

export type CustomerType = "user" | "team" | "custom";
export type DayInterval = [number, "day" | "week" | "month" | "year"];

export interface OfferConfig {
  displayName: string;
  groupId?: string;
  isAddOnTo: false | Record<string, true>;
  customerType: CustomerType;
  freeTrial?: DayInterval;
  serverOnly: boolean;
  stackable?: boolean;
  prices: "include-by-default" | Record<string, OfferPriceConfig>;
  includedItems: Record<string, { quantity: number; repeat: DayInterval | "never"; expires: "never" | "when-purchase-expires" | "when-repeated" }>;
}

export interface OfferPriceConfig {
  USD?: string; EUR?: string; GBP?: string; JPY?: string; INR?: string; AUD?: string; CAD?: string;
  interval?: DayInterval;
  serverOnly: boolean;
  freeTrial?: DayInterval;
}

/** Whether users with an unverified (or no) primary email are restricted (`onboarding.requireEmailVerification`). */
export function requiresEmailVerification(config: ProjectConfig): boolean {
  return config.onboarding?.requireEmailVerification === true;
}

/**
 * Whether client requests must carry a publishable key even where the protocol version makes it optional
 * (2.8.108; `project.requirePublishableClientKey`, off by default as in the reference).
 */
export function requiresPublishableClientKey(config: ProjectConfig): boolean {
  return config.project?.requirePublishableClientKey === true;
}

/** The id clients know as the default e-mail theme; `emails.selectedThemeId` falls back to it. */
export const DEFAULT_EMAIL_THEME_ID = DEFAULT_LIGHT_EMAIL_THEME_ID;

/** The protocol's built-in themes, "Default Light" and "Default Dark", which every project may select. */
export const BUILT_IN_EMAIL_THEME_IDS: readonly string[] = Object.keys(BUILT_IN_EMAIL_THEMES);

/** Whether a project may select `themeId`: a built-in theme or one of its own. */
export function isKnownEmailTheme(config: ProjectConfig, themeId: string): boolean {
  return BUILT_IN_EMAIL_THEME_IDS.includes(themeId) || hasOwn(config.emails.themes, themeId);
}

export interface ConfigRenderOptions {
  /** Built-in e-mail themes and templates (owned by the e-mail module), present unless overridden. */
  builtInEmailThemes?: ProjectConfig["emails"]["themes"];
  builtInEmailTemplates?: ProjectConfig["emails"]["templates"];
}

/**
 * As the protocol renders a config: the built-in themes and templates are entries of `emails.themes` and
 * `emails.templates` (issue 19), so `GET /internal/config` lists them and an override edits them in place.
 */
const WITH_BUILT_IN_EMAILS: ConfigRenderOptions = { builtInEmailThemes: BUILT_IN_EMAIL_THEMES, builtInEmailTemplates: BUILT_IN_EMAIL_TEMPLATES };

// Defaults as a tree; a `RecordDefaults` gives the defaults of each entry of a keyed record.
const RECORD = Symbol("record");
interface RecordDefaults {
  [RECORD]: (key: string) => Defaults;
  builtIn: Record<string, unknown>;
}
type Defaults = string | number | boolean | undefined | RecordDefaults | { [key: string]: Defaults };
const recordOf = (entry: (key: string) => Defaults, builtIn: Record<string, unknown> = {}): RecordDefaults => ({ [RECORD]: entry, builtIn });

function defaultsTree(options: ConfigRenderOptions): Defaults {
  const permissionSet = recordOf(() => undefined);
  return {
    sourceOfTruth: { type: "hosted" },
    rbac: {
      permissions: recordOf(() => ({ containedPermissionIds: recordOf(() => undefined) })),
      defaultPermissions: { teamCreator: permissionSet, teamMember: permissionSet, signUp: permissionSet },
    },
    apiKeys: { enabled: { team: false, user: false } },
    teams: { createPersonalTeamOnSignUp: false, allowClientTeamCreation: false },
    users: { allowClientUserDeletion: false },
    domains: { allowLocalhost: false, trustedDomains: recordOf(() => ({ handlerPath: "/handler" })) },
    auth: {
      allowSignUp: true,
      password: { allowSignIn: false },
      otp: { allowSignIn: false },
      passkey: { allowSignIn: false },
      oauth: {
        accountMergeStrategy: "link_method",
        providers: recordOf(() => ({ isShared: true, allowSignIn: false, allowConnectedAccounts: false })),
      },
    },
    emails: {
      server: { isShared: true, provider: "smtp" },
      selectedThemeId: DEFAULT_EMAIL_THEME_ID,
      themes: recordOf(
        () => ({ displayName: "Unnamed Theme", tsxSource: "Error: Theme config is missing TypeScript source code." }),
        options.builtInEmailThemes,
      ),
      templates: recordOf(
        () => ({ displayName: "Unnamed Template", tsxSource: "Error: Template config is missing TypeScript source code." }),
        options.builtInEmailTemplates,
      ),
    },
    payments: {
      groups: recordOf(() => ({})),
      offers: recordOf((key) => ({
        displayName: key,
        customerType: "user",
        serverOnly: false,
        isAddOnTo: false,
        prices: recordOf(() => ({ serverOnly: false })),
        includedItems: recordOf(() => ({ quantity: 0, repeat: "never", expires: "when-repeated" })),
      })),
      items: recordOf((key) => ({ displayName: key, customerType: "user" })),
    },
    dataVault: { stores: recordOf(() => ({ displayName: "Unnamed Vault" })) },
    workflows: {
      availableWorkflows: recordOf(() => ({
        displayName: "Unnamed Workflow",
        tsSource: "Error: Workflow config is missing TypeScript source code.",
        enabled: false,
      })),
    },
  };
}

function isRecordDefaults(d: Defaults): d is RecordDefaults {
  return typeof d === "object" && RECORD in d;
}

function materialize(d: Defaults): unknown {
  if (typeof d !== "object") return d;
  if (isRecordDefaults(d)) return structuredClone(d.builtIn);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(d)) {
    const m = materialize(value);
    if (m !== undefined) setOwn(out, key, m);
  }
  return out;
}

function isObjectLike(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** Fills `defaults` under a normalized `value`: value wins, nested objects merge, records get entry defaults. */
function fillDefaults(defaults: Defaults, value: Record<string, unknown>): Record<string, unknown> {
  const result = materialize(defaults) as Record<string, unknown>;
  for (const [key, merge] of Object.entries(value)) {
    if (merge === undefined) continue;
    let base: Defaults = undefined;
    if (isRecordDefaults(defaults)) {
      base = hasOwn(defaults.builtIn, key) ? (getOwn(defaults.builtIn, key) as Defaults) : defaults[RECORD](key);
    } else if (typeof defaults === "object") {
      base = getOwn(defaults, key) as Defaults;
    }
    const useDefaults = isObjectLike(base) && isObjectLike(merge) && !Array.isArray(merge);
    setOwn(result, key, useDefaults ? fillDefaults(base as Defaults, merge) : merge);
  }
  return result;
}

/** The protocol's clean-ups of a rendered config (source of truth, selected theme, offers). */
function sanitize(config: ProjectConfig): ProjectConfig {
  const source = config.sourceOfTruth as { type: string; connectionStrings?: unknown; connectionString?: unknown };
  const sourceOfTruth: ProjectConfig["sourceOfTruth"] =
    source.type === "neon" && isObjectLike(source.connectionStrings)
      ? { type: "neon", connectionStrings: { ...(source.connectionStrings as Record<string, string>) } }
      : source.type === "postgres" && typeof source.connectionString === "string"
        ? { type: "postgres", connectionString: source.connectionString }
        : { type: "hosted" };
  const { themes } = config.emails;
  const themeIds = Object.keys(themes);
  const selectedThemeId = themeIds.length === 0 || hasOwn(themes, config.emails.selectedThemeId) ? config.emails.selectedThemeId : DEFAULT_EMAIL_THEME_ID;
  const offers: Record<string, OfferConfig> = {};
  for (const [id, offer] of Object.entries(config.payments.offers)) {
    const isAddOnTo = offer.isAddOnTo === false ? false : Object.fromEntries(Object.keys(offer.isAddOnTo).map((k) => [k, true as const]));
    const prices = offer.prices === "include-by-default"
      ? offer.prices
      : Object.fromEntries(Object.entries(offer.prices).map(([k, p]) => [k, { ...p, serverOnly: (p.serverOnly as boolean | undefined) ?? false }]));
    setOwn(offers, id, { ...offer, isAddOnTo, prices });
  }
  return {
    ...config,
    sourceOfTruth,
    emails: { ...config.emails, selectedThemeId },
    payments: { ...config.payments, offers },
  };
}

/** The config of a project whose override is empty. */
export function defaultProjectConfig(options: ConfigRenderOptions = WITH_BUILT_IN_EMAILS): ProjectConfig {
  return sanitize(fillDefaults(defaultsTree(options), {}) as unknown as ProjectConfig);
}

/**
 * Layers an override (dotted keys allowed, `null` removes) over `base` and fills the defaults.
 * `base` may be a complete config or a stored override. Dotted keys into missing entries create them
 * (with the entry's defaults); dotted keys into strings, numbers or booleans are ignored.
 *
 * @example
 * applyConfigOverride(defaultProjectConfig(), { "auth.oauth.providers.github": { type: "github", allowSignIn: true } })
 */
export function applyConfigOverride(base: ProjectConfig | ConfigObject, override: ConfigOverride, options: ConfigRenderOptions = WITH_BUILT_IN_EMAILS): ProjectConfig {
  const merged = overrideConfig(base as unknown as ConfigObject, override);
  const normalized = normalizeConfig(merged, { onDotIntoNonObject: "ignore", onDotIntoMissing: "empty-object" });
  return sanitize(fillDefaults(defaultsTree(options), normalized) as unknown as ProjectConfig);
}

// Rendered configs of the overrides the project cache hands out. Those are frozen and kept until the project
// changes, so one object is one config: most requests (a sign-in checks that passwords are on) render nothing.
const renderedOverrides = new WeakMap<object, ProjectConfig>();

/**
 * The complete config of a project from its stored override. Rendered once per cached override (a frozen
 * object: see above); the result is then frozen too, as every request shares it.
 */
export function renderProjectConfig(storedOverride: ConfigOverride, options: ConfigRenderOptions = WITH_BUILT_IN_EMAILS): ProjectConfig {
  const memoizable = options === WITH_BUILT_IN_EMAILS && Object.isFrozen(storedOverride);
  if (!memoizable) return applyConfigOverride({}, storedOverride, options);
  let config = renderedOverrides.get(storedOverride);
  if (!config) renderedOverrides.set(storedOverride, (config = deepFreeze(applyConfigOverride({}, storedOverride, options))));
  return config;
}

export type ConfigCheck = { ok: true; override: ConfigOverride } | { ok: false; error: string };

/**
 * Checks an override (after JSON parsing) as config-override-check.ts does, giving the bare message (e.g.
 * `The key "auth.foo" is not valid for the schema.`) without the stage prefix `PATCH /internal/config/override`
 * sends: the legacy project routes refuse with it. First the protocol's checks (format, known keys, value
 * types and enumerations), then Latchkey's semantic ones (trusted-domain URLs, handler paths, SMTP fields, ids,
 * money amounts).
 */
export function validateProjectConfig(override: unknown): ConfigCheck {
  const check = checkConfigOverride(override);
  return check.ok ? check : { ok: false, error: check.error.replace(STAGE_PREFIX, "") };
}

/** Parses `config_override_string`; invalid JSON is a 400 with the message "Invalid config JSON". */
export function parseConfigOverrideString(text: string): ConfigCheck {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: "Invalid config JSON" };
  }
  return validateProjectConfig(parsed);
}

/** The body of `GET /internal/config`. */
export function renderConfigRead(config: ProjectConfig): { config_string: string } {
  return { config_string: JSON.stringify(withoutOAuthClientSecrets(config)) };
}

/**
 * OAuth client secrets are write-only (issue 15): an admin sets them, no read hands them back, so a leaked admin
 * key or a dashboard screenshot does not leak the project's provider apps.
 */
export function withoutOAuthClientSecrets(config: ProjectConfig): ProjectConfig {
  const providers = Object.fromEntries(Object.entries(config.auth.oauth.providers).map(([id, { clientSecret: _secret, ...rest }]) => [id, rest]));
  return { ...config, auth: { ...config.auth, oauth: { ...config.auth.oauth, providers } } };
}
