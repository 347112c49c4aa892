import type {
  AdminProjectConfigRead,
  AdminProjectConfigUpdate,
  AdminProjectRead,
  ClientProjectConfigRead,
  ClientProjectRead,
  LegacyOAuthProviderRead,
  OAuthProviderId,
  ProjectOnboardingStatus,
} from "@latchkey/protocol/schemas";
import { overrideConfig, type ConfigObject, type ConfigOverride } from "./config-format.js";
import { isKnownEmailTheme, renderProjectConfig, validateProjectConfig, type ConfigCheck, type ProjectConfig } from "./project-config.js";

/**
 * The legacy, snake_case view of a project's config (the `config` of `/projects/current` and
 * `/internal/projects/current`) is a projection of the complete config; legacy updates become an
 * override. This is the one place where the two vocabularies meet.
 */

/** OAuth providers that can be signed in with: an entry needs a type and `allowSignIn`. */
function signInProviders(config: ProjectConfig): LegacyOAuthProviderRead[] {
  const providers: LegacyOAuthProviderRead[] = [];
  for (const [providerConfigId, provider] of Object.entries(config.auth.oauth.providers)) {
    if (!provider.type || !provider.allowSignIn) continue;
    providers.push(withoutUndefined({
      provider_config_id: providerConfigId,
      id: provider.type,
      type: provider.isShared ? "shared" : "standard",
      client_id: provider.clientId,
      // Write-only (issue 15): never read back.
      facebook_config_id: provider.facebookConfigId,
      microsoft_tenant_id: provider.microsoftTenantId,
    }));
  }
  // Sorted by id, as the protocol lists them (whatever order the config's keys have).
  return providers.sort((a, b) => codePointOrder(a.id, b.id));
}

function codePointOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A default permission set as the protocol lists it: sorted by id (code-point order). */
function permissionList(set: Record<string, true | undefined>): { id: string }[] {
  const ids = Object.entries(set).filter(([, granted]) => granted).map(([id]) => id);
  return ids.sort(codePointOrder).map((id) => ({ id }));
}

/** The admin's legacy `config` sub-object. It carries secrets (client secrets, SMTP password): admin only. */
export function toAdminProjectConfigRead(config: ProjectConfig): AdminProjectConfigRead {
  const providers = signInProviders(config);
  const server = config.emails.server;
  // The client's view of the switches, with the providers' full settings instead of their ids; its
  // trusted domains are set below, in the admin view's own order of fields.
  const { allow_localhost: allowLocalhost, domains, ...switches } = toClientProjectConfigRead(config);
  return {
    allow_localhost: allowLocalhost,
    ...switches,
    oauth_providers: providers,
    // Ids only, as in the client's view (the protocol's admin view too).
    enabled_oauth_providers: providers.map((p) => ({ id: p.id })),
    domains,
    email_config: server.isShared
      ? { type: "shared" }
      : withoutUndefined({
          type: "standard" as const,
          host: server.host,
          port: server.port,
          username: server.username,
          password: server.password,
          sender_name: server.senderName,
          sender_email: server.senderEmail,
        }),
    email_theme: config.emails.selectedThemeId,
    create_team_on_sign_up: config.teams.createPersonalTeamOnSignUp,
    team_creator_default_permissions: permissionList(config.rbac.defaultPermissions.teamCreator),
    team_member_default_permissions: permissionList(config.rbac.defaultPermissions.teamMember),
    user_default_permissions: permissionList(config.rbac.defaultPermissions.signUp),
    oauth_account_merge_strategy: config.auth.oauth.accountMergeStrategy,
  };
}

/** What any client may see: sign-in methods and client permissions; never credentials. */
export function toClientProjectConfigRead(config: ProjectConfig): ClientProjectConfigRead {
  return {
    sign_up_enabled: config.auth.allowSignUp,
    credential_enabled: config.auth.password.allowSignIn,
    magic_link_enabled: config.auth.otp.allowSignIn,
    passkey_enabled: config.auth.passkey.allowSignIn,
    client_team_creation_enabled: config.teams.allowClientTeamCreation,
    client_user_deletion_enabled: config.users.allowClientUserDeletion,
    allow_localhost: config.domains.allowLocalhost,
    allow_user_api_keys: config.apiKeys.enabled.user,
    allow_team_api_keys: config.apiKeys.enabled.team,
    enabled_oauth_providers: signInProviders(config).map((p) => ({ id: p.id as OAuthProviderId })),
    domains: trustedDomainList(config),
  };
}

/** The trusted domains (those with a base URL), sorted by it as the protocol lists them. */
function trustedDomainList(config: ProjectConfig): { domain: string; handler_path: string }[] {
  return Object.values(config.domains.trustedDomains)
    .filter((d): d is { baseUrl: string; handlerPath: string } => typeof d.baseUrl === "string")
    .map((d) => ({ domain: d.baseUrl, handler_path: d.handlerPath }))
    .sort((a, b) => codePointOrder(a.domain, b.domain));
}

/**
 * A legacy `config` update as an override to layer over the stored one. Lists (domains, OAuth
 * providers, default permissions) and the e-mail server replace the previous value wholesale;
 * omitted fields are left unchanged.
 */
export function legacyConfigUpdateToOverride(update: AdminProjectConfigUpdate): ConfigOverride {
  const permissions = (list: { id: string }[] | undefined) =>
    list === undefined ? undefined : Object.fromEntries(list.map((p) => [p.id, true]));
  const email = update.email_config;
  const override: Record<string, unknown> = {
    "auth.allowSignUp": update.sign_up_enabled,
    "auth.password.allowSignIn": update.credential_enabled,
    "auth.otp.allowSignIn": update.magic_link_enabled,
    "auth.passkey.allowSignIn": update.passkey_enabled,
    "auth.oauth.accountMergeStrategy": update.oauth_account_merge_strategy,
    "auth.oauth.providers": update.oauth_providers === undefined ? undefined : Object.fromEntries(
      update.oauth_providers.map((p) => [p.id, withoutUndefined({
        type: p.id,
        isShared: p.type === "shared",
        clientId: p.type === "standard" ? p.client_id : undefined,
        clientSecret: p.type === "standard" ? p.client_secret : undefined,
        facebookConfigId: p.type === "standard" ? p.facebook_config_id : undefined,
        microsoftTenantId: p.type === "standard" ? p.microsoft_tenant_id : undefined,
        allowSignIn: true,
        allowConnectedAccounts: true,
      })]),
    ),
    "users.allowClientUserDeletion": update.client_user_deletion_enabled,
    "onboarding.requireEmailVerification": update.require_email_verification,
    "teams.allowClientTeamCreation": update.client_team_creation_enabled,
    "teams.createPersonalTeamOnSignUp": update.create_team_on_sign_up,
    "domains.allowLocalhost": update.allow_localhost,
    // Record keys only need to be unique within the list, which replaces the previous one.
    "domains.trustedDomains": update.domains === undefined ? undefined : Object.fromEntries(
      update.domains.map((d, i) => [`domain_${i}`, { baseUrl: d.domain, handlerPath: d.handler_path }]),
    ),
    "apiKeys.enabled.user": update.allow_user_api_keys,
    "apiKeys.enabled.team": update.allow_team_api_keys,
    "emails.server": email === undefined ? undefined : email.type === "shared" ? { isShared: true } : withoutUndefined({
      isShared: false,
      host: email.host,
      port: email.port,
      username: email.username,
      password: email.password,
      senderName: email.sender_name,
      senderEmail: email.sender_email,
    }),
    "emails.selectedThemeId": update.email_theme,
    "rbac.defaultPermissions.teamCreator": permissions(update.team_creator_default_permissions),
    "rbac.defaultPermissions.teamMember": permissions(update.team_member_default_permissions),
    "rbac.defaultPermissions.signUp": permissions(update.user_default_permissions),
  };
  return withoutUndefined(override) as ConfigObject;
}

/**
 * A stored override with a legacy `config` update layered over it, checked: the merged override must be
 * valid, and `email_theme` must name a theme the project has ("Invalid email theme", as the protocol says).
 */
export function applyLegacyConfigUpdate(stored: ConfigObject, update: AdminProjectConfigUpdate): ConfigCheck {
  const merged = overrideConfig(stored, legacyConfigUpdateToOverride(update));
  const check = validateProjectConfig(merged);
  if (!check.ok) return check;
  if (update.email_theme !== undefined && !isKnownEmailTheme(renderProjectConfig(merged), update.email_theme)) {
    return { ok: false, error: "Invalid email theme" };
  }
  return { ok: true, override: merged };
}

/** A project row as the database holds it (the fields the read shapes need). */
export interface ProjectRecord {
  id: string;
  display_name: string;
  description: string | null;
  created_at: Date | string | number;
  is_production_mode: boolean;
  owner_team_id: string | null;
  logo_url: string | null;
  full_logo_url: string | null;
  logo_dark_mode_url: string | null;
  logo_full_dark_mode_url: string | null;
  is_development_environment: boolean;
  onboarding_status: string;
}

/** Body of `GET /projects/current`. */
export function renderClientProjectRead(project: ProjectRecord, config: ProjectConfig): ClientProjectRead {
  return { id: project.id, display_name: project.display_name, config: toClientProjectConfigRead(config) };
}

/** Body of `GET`/`PATCH /internal/projects/current` and items of `GET /internal/projects`. */
export function renderAdminProjectRead(project: ProjectRecord, config: ProjectConfig): AdminProjectRead {
  return {
    id: project.id,
    display_name: project.display_name,
    description: project.description ?? "",
    logo_url: project.logo_url,
    full_logo_url: project.full_logo_url,
    logo_full_url: project.full_logo_url,
    logo_dark_mode_url: project.logo_dark_mode_url,
    logo_full_dark_mode_url: project.logo_full_dark_mode_url,
    created_at_millis: new Date(project.created_at).getTime(),
    is_production_mode: project.is_production_mode,
    is_development_environment: project.is_development_environment,
    owner_team_id: project.owner_team_id,
    onboarding_status: project.onboarding_status as ProjectOnboardingStatus,
    config: toAdminProjectConfigRead(config),
  };
}

function withoutUndefined<T extends Record<string, unknown>>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}
