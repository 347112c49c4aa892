import { z } from "zod";
import { newerField } from "./dialect-fields.js";

/**
 * Wire shapes of a project's configuration: the legacy snake_case `config` sub-object of
 * `/projects/current` and `/internal/projects/current`, and the bodies of `/internal/config` and
 * `/internal/config/override` (whose config travels as a JSON string in camelCase).
 * Field rules follow SPEC.md §3 "Project"/"Config", §5 and §9.
 */

/** OAuth providers a project can enable (SPEC.md §9). */
export const OAUTH_PROVIDER_IDS = [
  "google", "github", "microsoft", "spotify", "facebook", "discord",
  "gitlab", "bitbucket", "linkedin", "apple", "x", "twitch",
] as const;
export type OAuthProviderId = (typeof OAUTH_PROVIDER_IDS)[number];

export const OAUTH_ACCOUNT_MERGE_STRATEGIES = ["link_method", "raise_error", "allow_duplicates"] as const;
export type OAuthAccountMergeStrategy = (typeof OAUTH_ACCOUNT_MERGE_STRATEGIES)[number];

/** Images may be inlined as base64 data URLs, hence the large bound (SPEC.md §9). */
export const MAX_IMAGE_URL_LENGTH = 1_000_000;
export const MAX_EMAIL_LENGTH = 256;
export const MAX_DISPLAY_NAME_LENGTH = 256;

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

// The HTML standard's e-mail production, plus SPEC.md §5: no leading dot, top-level part of 2+ chars.
const HTML_EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const STRICT_EMAIL_SHAPE = /^[^.]+(\.[^.]+)*@.*\.[^.][^.]+$/;

export function isValidEmail(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && HTML_EMAIL.test(value) && STRICT_EMAIL_SHAPE.test(value);
}

/**
 * The loose check: the HTML standard's production alone (`invalid_email@gmai` passes). The protocol checks an
 * address a server or admin sets on a user this way; sign-up and sign-in use `isValidEmail`.
 */
export function isLooseEmail(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && HTML_EMAIL.test(value);
}

/**
 * Why `hostname` is not a valid trusted-domain host (wildcards allowed), or undefined.
 * `*` matches one label, `**` any number of labels; SPEC.md §5.
 */
export function hostnamePatternError(hostname: string): string | undefined {
  if (!hostname) return "is empty";
  if (hostname.startsWith(".") || hostname.endsWith(".")) return "must not start or end with a dot";
  if (hostname.includes("..")) return "must not contain two dots in a row";
  if (!hostname.includes("*")) {
    const url = parseUrl(`https://${hostname}`);
    return url?.hostname === hostname ? undefined : "is not a valid hostname";
  }
  if (!/^[a-zA-Z0-9.*-]+$/.test(hostname)) return "may only contain letters, digits, dots, hyphens and wildcards";
  return undefined;
}

const WILDCARD_PLACEHOLDER = "wildcard-placeholder";
const NOT_HTTP_REASON = "must start with http:// or https://";

/**
 * The protocol's line for a legacy `domains[].domain` that is not http(s): a sentence of its own, without the
 * field's path (its schema gives the regex test that message).
 */
export const TRUSTED_DOMAIN_NOT_HTTP_MESSAGE = "URL must start with http:// or https://";

/**
 * Why `value` is not an acceptable trusted domain (a base URL such as `https://*.example.com/app`),
 * or undefined when it is. The reason reads after the field's path, e.g. "domain is not a valid URL".
 * Rules: no spaces; http or https only; a wildcard may appear only in the host; no credentials.
 */
export function trustedDomainError(value: string): string | undefined {
  if (value.includes(" ")) return "contains spaces";
  if (!/^https?:\/\//i.test(value)) return NOT_HTTP_REASON;
  const hasWildcard = value.includes("*");
  const url = parseUrl(hasWildcard ? value.replaceAll("*", WILDCARD_PLACEHOLDER) : value);
  if (!url) return hasWildcard ? "is not a valid URL or wildcard URL pattern" : "is not a valid URL";
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must start with http:// or https://";
  if (url.username !== "" || url.password !== "") return "must not contain credentials";
  if (hasWildcard) {
    const outsideHost = [url.username, url.password, url.port, url.pathname, url.search, url.hash];
    if (outsideHost.some((part) => part.includes(WILDCARD_PLACEHOLDER))) {
      return "is not a valid URL or wildcard URL pattern";
    }
  }
  const hostname = url.hostname.split(WILDCARD_PLACEHOLDER).join("*");
  const hostError = hostnamePatternError(hostname);
  if (hostError) return hasWildcard ? "is not a valid URL or wildcard URL pattern" : `host ${hostError}`;
  return undefined;
}

/**
 * The protocol's URL check: two tests, each its own line when it fails, in this order — no spaces, and the WHATWG
 * parser, which takes `https://example.com/a b` (encoding the space), so that one fails the first test only.
 */
export const protocolUrl = z.string().superRefine((value, ctx) => {
  if (value.includes(" ")) ctx.addIssue({ code: "custom", message: "contains spaces" });
  if (!parseUrl(value)) ctx.addIssue({ code: "custom", message: "is not a valid URL" });
});

/** A logo or image: a URL (often a base64 `data:` URL) of at most 1,000,000 characters, its length tested last. */
export const imageUrl = protocolUrl.max(MAX_IMAGE_URL_LENGTH);

export const emailAddress = z.string().refine(isValidEmail, { message: "must be a valid email" });

export const handlerPath = z.string().refine((value) => value.startsWith("/"), {
  message: "must start with /",
});

const permissionRef = z.strictObject({ id: z.string() });

export const legacyDomain = z.strictObject({
  domain: z.string().superRefine((value, ctx) => {
    const reason = trustedDomainError(value);
    if (!reason) return;
    if (reason !== NOT_HTTP_REASON) ctx.addIssue({ code: "custom", message: reason });
    else {
      // The protocol tests the URL first ("… is not a valid URL"), then the scheme with a message of its own.
      if (!parseUrl(value)) ctx.addIssue({ code: "custom", message: "is not a valid URL" });
      ctx.addIssue({ code: "custom", message: TRUSTED_DOMAIN_NOT_HTTP_MESSAGE, params: { withoutPath: true } });
    }
  }),
  handler_path: handlerPath,
});
export type LegacyDomain = z.infer<typeof legacyDomain>;

const nonEmpty = z.string().min(1);

/** Outgoing e-mail server: the shared one, or the project's own SMTP server. */
export const legacyEmailConfig = z
  .strictObject({
    type: z.enum(["shared", "standard"]),
    host: z.string().optional(),
    port: z.number().int().min(0).max(65535).optional(),
    username: z.string().optional(),
    password: z.string().max(70).optional(),
    sender_name: z.string().optional(),
    sender_email: emailAddress.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.type !== "standard") return;
    // In the protocol's field order, which is the order its missing fields are reported in.
    for (const key of ["host", "port", "username", "password", "sender_name", "sender_email"] as const) {
      if (key === "port") {
        if (value.port === undefined) ctx.addIssue({ code: "custom", path: ["port"], message: "must be defined" });
        continue;
      }
      const result = nonEmpty.safeParse(value[key]);
      if (!result.success) {
        ctx.addIssue({ code: "custom", path: [key], message: value[key] === undefined ? "must be defined" : "must not be empty" });
      }
    }
  });
export type LegacyEmailConfig = z.infer<typeof legacyEmailConfig>;

/** An OAuth provider as written by an admin; `standard` needs the project's own client credentials. */
export const legacyOAuthProviderWrite = z
  .strictObject({
    id: z.enum(OAUTH_PROVIDER_IDS),
    type: z.enum(["shared", "standard"]),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    facebook_config_id: z.string().optional(),
    microsoft_tenant_id: z.string().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.type !== "standard") return;
    for (const key of ["client_id", "client_secret"] as const) {
      if (!value[key]) {
        ctx.addIssue({ code: "custom", path: [key], message: value[key] === undefined ? "must be defined" : "must not be empty" });
      }
    }
  });
export type LegacyOAuthProviderWrite = z.infer<typeof legacyOAuthProviderWrite>;

export const legacyOAuthProviderRead = z.strictObject({
  provider_config_id: z.string(),
  id: z.enum(OAUTH_PROVIDER_IDS),
  type: z.enum(["shared", "standard"]),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  facebook_config_id: z.string().optional(),
  microsoft_tenant_id: z.string().optional(),
});
export type LegacyOAuthProviderRead = z.infer<typeof legacyOAuthProviderRead>;

/** An enabled OAuth provider as every view lists it: its id only. */
export const enabledOAuthProviderRead = z.strictObject({ id: z.enum(OAUTH_PROVIDER_IDS) });

/** A trusted domain as every view lists it: its base URL and the path of its auth handler pages. */
export const trustedDomainRead = z.strictObject({ domain: z.string(), handler_path: z.string() });

/**
 * The fields a client (publishable key) may see of a project's config. 2.8.108 adds the trusted domains:
 * its client checks redirect targets against them itself.
 */
export const clientProjectConfigRead = z.strictObject({
  sign_up_enabled: z.boolean(),
  credential_enabled: z.boolean(),
  magic_link_enabled: z.boolean(),
  passkey_enabled: z.boolean(),
  client_team_creation_enabled: z.boolean(),
  client_user_deletion_enabled: z.boolean(),
  allow_localhost: newerField(z.boolean()),
  allow_user_api_keys: z.boolean(),
  allow_team_api_keys: z.boolean(),
  enabled_oauth_providers: z.array(enabledOAuthProviderRead),
  domains: newerField(z.array(trustedDomainRead)),
});
export type ClientProjectConfigRead = z.infer<typeof clientProjectConfigRead>;

/** The legacy (deprecated upstream, still read by the published SDK) admin view of a project's config. */
export const adminProjectConfigRead = z.strictObject({
  allow_localhost: z.boolean(),
  sign_up_enabled: z.boolean(),
  credential_enabled: z.boolean(),
  magic_link_enabled: z.boolean(),
  passkey_enabled: z.boolean(),
  client_team_creation_enabled: z.boolean(),
  client_user_deletion_enabled: z.boolean(),
  allow_user_api_keys: z.boolean(),
  allow_team_api_keys: z.boolean(),
  oauth_providers: z.array(legacyOAuthProviderRead),
  enabled_oauth_providers: z.array(enabledOAuthProviderRead),
  domains: z.array(trustedDomainRead),
  email_config: z.strictObject({
    type: z.enum(["shared", "standard"]),
    host: z.string().optional(),
    port: z.number().optional(),
    username: z.string().optional(),
    password: z.string().optional(),
    sender_name: z.string().optional(),
    sender_email: z.string().optional(),
  }),
  email_theme: z.string(),
  create_team_on_sign_up: z.boolean(),
  team_creator_default_permissions: z.array(z.strictObject({ id: z.string() })),
  team_member_default_permissions: z.array(z.strictObject({ id: z.string() })),
  user_default_permissions: z.array(z.strictObject({ id: z.string() })),
  oauth_account_merge_strategy: z.enum(OAUTH_ACCOUNT_MERGE_STRATEGIES),
});
export type AdminProjectConfigRead = z.infer<typeof adminProjectConfigRead>;

/** The legacy `config` of an admin project update: every field optional; lists replace wholesale. */
export const adminProjectConfigUpdate = z.strictObject({
  sign_up_enabled: z.boolean().optional(),
  credential_enabled: z.boolean().optional(),
  magic_link_enabled: z.boolean().optional(),
  passkey_enabled: z.boolean().optional(),
  client_team_creation_enabled: z.boolean().optional(),
  client_user_deletion_enabled: z.boolean().optional(),
  allow_localhost: z.boolean().optional(),
  allow_user_api_keys: z.boolean().optional(),
  allow_team_api_keys: z.boolean().optional(),
  email_config: legacyEmailConfig.optional(),
  email_theme: z.string().optional(),
  domains: z.array(legacyDomain).optional(),
  oauth_providers: z.array(legacyOAuthProviderWrite).optional(),
  create_team_on_sign_up: z.boolean().optional(),
  team_creator_default_permissions: z.array(permissionRef).optional(),
  team_member_default_permissions: z.array(permissionRef).optional(),
  user_default_permissions: z.array(permissionRef).optional(),
  oauth_account_merge_strategy: z.enum(OAUTH_ACCOUNT_MERGE_STRATEGIES).optional(),
  // Users whose primary email is not verified are restricted (config `onboarding.requireEmailVerification`).
  // Write-only, as in the protocol: the legacy read has no such field; `GET /internal/config` shows it.
  require_email_verification: newerField(z.boolean().optional()),
});
export type AdminProjectConfigUpdate = z.infer<typeof adminProjectConfigUpdate>;

/** `GET /internal/config` (admin): the rendered config, camelCase, serialized as JSON. */
export const configRead = z.strictObject({ config_string: z.string() });
export type ConfigRead = z.infer<typeof configRead>;

/**
 * `PATCH /internal/config/override` (admin): a JSON object whose keys may be dotted paths
 * (`"auth.oauth.providers.github"`), merged over the stored override. Absent means no change.
 * The response body is `{}`.
 */
export const configOverrideUpdateBody = z.strictObject({
  config_override_string: z.string().optional(),
});
export type ConfigOverrideUpdateBody = z.infer<typeof configOverrideUpdateBody>;

export const configOverrideRead = z.strictObject({});

/**
 * 2.8.108 addresses the override by level (`/internal/config/override/{level}`): the reference keeps one per
 * level, layered; Latchkey keeps one override, which every level reads and changes.
 */
export const configOverrideLevelParams = z.object({ level: z.enum(["project", "branch", "environment"]) });

/** `POST /internal/config/override/{level}/reset-keys` (2.8.108): the dotted keys to drop, each with what is under it. */
export const configOverrideResetKeysBody = z.strictObject({ keys: z.array(z.string().min(1)) });
export type ConfigOverrideRead = z.infer<typeof configOverrideRead>;
