import type { OAuthProviderClientRead, OAuthProviderServerRead } from "@latchkey/protocol/schemas";

/** A provider account linked to a user, as `/oauth-providers` lists it. */
export interface OAuthConnection {
  /** The link's id. */
  id: string;
  /** The project's provider entry (`github`, …) and the provider's type. */
  providerId: string;
  type: string;
  email: string | null;
  allowSignIn: boolean;
  allowConnectedAccounts: boolean;
}

/** A user's link to a provider account, as a server sees it: with the provider's account id. */
export interface UserOAuthLink extends OAuthConnection {
  accountId: string;
}

/** A link as a client reads it (its own user's, without the provider's account id). */
export function oauthConnectionFromWire(read: OAuthProviderClientRead): OAuthConnection {
  return {
    id: read.id,
    providerId: read.provider_config_id,
    type: read.type,
    email: read.email ?? null,
    allowSignIn: read.allow_sign_in,
    allowConnectedAccounts: read.allow_connected_accounts,
  };
}

/** A link as a server reads it: any user's, with the provider's account id. */
export function userOAuthLinkFromWire(read: OAuthProviderServerRead): UserOAuthLink {
  return { ...oauthConnectionFromWire(read), accountId: read.account_id };
}
