import type { OAuthProviderId } from "@latchkey/protocol/schemas";

/**
 * The "inner" OAuth flow: Latchkey as an OAuth client of a provider (GitHub, Google, …, or a development
 * OpenID issuer). Implemented per provider type in oauth/providers/ on openid-client; the routes
 * (routes/auth-oauth.ts) only see this interface.
 */

/** Who the user is at the provider, mapped from the provider's own profile shape. */
export interface ProviderProfile {
  /** The provider's stable account id (never the email, unless the provider has nothing else). */
  accountId: string;
  email: string | null;
  /** True only when the provider itself says the address is verified; never assumed. */
  emailVerified: boolean;
  displayName: string | null;
  profileImageUrl: string | null;
}

export interface ProviderTokens {
  accessToken: string;
  refreshToken: string | null;
  /** When the access token expires, if the provider said. */
  expiresAt: Date | null;
  /** The scopes granted (the token response's `scope`, else the scopes asked for). */
  scopes: string[];
}

/** Credentials and settings for one provider entry. */
export type ProviderSettings =
  | {
      kind: "standard";
      clientId: string;
      clientSecret: string;
      facebookConfigId?: string;
      microsoftTenantId?: string;
    }
  | {
      /**
       * A development OpenID issuer stands in for the provider (LATCHKEY_OAUTH_DEV_ISSUER, or the built-in one
       * under /dev/oauth): discovery at `issuer`, client id = the provider type, scope `openid offline_access`,
       * `prompt=consent`; the account id is `sub`, the email the `email` claim or else `sub`, counted as verified.
       */
      kind: "dev-issuer";
      issuer: string;
      clientId: string;
      clientSecret: string;
    };

export interface AuthorizationRequest {
  /** Latchkey's callback URL for this provider entry. */
  redirectUri: string;
  state: string;
  /** S256 challenge of the verifier kept in the outer state record. */
  codeChallenge: string;
  /** Extra scopes the client asked for (`provider_scope`, space-separated), added to the provider's defaults. */
  extraScope?: string;
}

export interface CallbackRequest {
  redirectUri: string;
  /** The callback as the provider sent it: query parameters of a GET, or the form fields of a POST (form_post). */
  params: URLSearchParams;
  state: string;
  codeVerifier: string;
}

export interface InnerOAuthClient {
  readonly type: OAuthProviderId;
  authorizationUrl(request: AuthorizationRequest): Promise<URL>;
  /** Exchanges the code and reads the profile. Throws ProviderCallbackError for the cases the routes map. */
  callback(request: CallbackRequest): Promise<{ profile: ProviderProfile; tokens: ProviderTokens }>;
  /** A fresh access token from a refresh token. Throws ProviderCallbackError("invalid_grant") when refused. */
  refresh(refreshToken: string): Promise<ProviderTokens>;
}

export type ProviderErrorKind = "access_denied" | "invalid_grant" | "invalid_client" | "other";

/** A provider-side failure the routes turn into the protocol's answer (routes/auth-oauth.ts). */
export class ProviderCallbackError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ProviderCallbackError";
  }
}
