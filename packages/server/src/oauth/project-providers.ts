import { KnownErrors } from "@latchkey/protocol/errors";
import type { OAuthProviderId } from "@latchkey/protocol/schemas";
import type { OAuthProviderConfig, ProjectConfig } from "../config/project-config.js";
import type { Env } from "../env.js";
import type { InnerOAuthClient, ProviderSettings } from "./inner-client.js";
import { innerOAuthClient } from "./providers/index.js";

/** A project's provider entry (config `auth.oauth.providers.<id>`), ready to talk to the provider. */
export interface ProjectProvider {
  /** The entry's id: the `{provider_id}` of the routes and the `provider_config_id` of links. */
  configId: string;
  type: OAuthProviderId;
  isShared: boolean;
  allowSignIn: boolean;
  allowConnectedAccounts: boolean;
}

/** The entry named `providerId` (case-insensitive, as the protocol's routes lowercase it), if it has a type. */
export function findProjectProvider(config: ProjectConfig, providerId: string): ProjectProvider | undefined {
  const wanted = providerId.toLowerCase();
  for (const [configId, entry] of Object.entries(config.auth.oauth.providers)) {
    if (configId.toLowerCase() !== wanted || !entry.type) continue;
    return { configId, type: entry.type, isShared: entry.isShared, allowSignIn: entry.allowSignIn, allowConnectedAccounts: entry.allowConnectedAccounts };
  }
  return undefined;
}

/** Latchkey's callback URL for a provider entry: what the provider redirects back to, and what admins register with it. */
export function providerCallbackUrl(env: Env, configId: string): string {
  return `${env.publicUrl}/api/v1/auth/oauth/callback/${encodeURIComponent(configId)}`;
}

/**
 * The client for a provider entry. `standard` entries use the project's own client id and secret. `shared`
 * ones use the server's (LATCHKEY_OAUTH_<TYPE>_CLIENT_ID/_SECRET); without those, the development issuer
 * (LATCHKEY_OAUTH_DEV_ISSUER, or in dev mode the built-in one under /dev/oauth). A provider that cannot work
 * (a standard entry without credentials; shared keys outside dev mode with none configured) is not enabled.
 */
export function providerClient(env: Env, config: ProjectConfig, provider: ProjectProvider): InnerOAuthClient {
  const settings = providerSettings(env, config.auth.oauth.providers[provider.configId]!, provider.type);
  if (!settings) throw new KnownErrors.OAuthProviderNotFoundOrNotEnabled();
  return innerOAuthClient(provider.type, settings);
}

function providerSettings(env: Env, entry: OAuthProviderConfig, type: OAuthProviderId): ProviderSettings | undefined {
  if (!entry.isShared) {
    if (!entry.clientId || !entry.clientSecret) return undefined;
    return { kind: "standard", clientId: entry.clientId, clientSecret: entry.clientSecret, facebookConfigId: entry.facebookConfigId, microsoftTenantId: entry.microsoftTenantId };
  }
  const shared = env.oauthSharedCredentials[type];
  if (shared) return { kind: "standard", ...shared };
  const issuer = env.oauthDevIssuer ?? (env.devMode ? `${env.publicUrl}/dev/oauth` : undefined);
  if (!issuer) return undefined;
  return { kind: "dev-issuer", issuer, clientId: type, clientSecret: env.oauthDevClientSecret };
}
