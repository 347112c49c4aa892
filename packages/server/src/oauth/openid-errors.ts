import * as openid from "openid-client";
import { ProviderCallbackError, type ProviderTokens } from "./inner-client.js";

/**
 * What a provider sends back when the user refuses: RFC 6749's `access_denied`, OpenID's `consent_required`,
 * and the dialects of Apple and LinkedIn (`user_cancelled_authorize`, `user_cancelled_login`).
 */
const REFUSALS = new Set(["access_denied", "consent_required", "user_cancelled_authorize", "user_cancelled_login"]);

/** What openid-client's errors (and a failed profile read) mean for the routes: ProviderCallbackError kinds. */
export async function mapProviderErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProviderCallbackError) throw error;
    const code = (error as { error?: unknown }).error;
    if (error instanceof openid.AuthorizationResponseError && typeof code === "string" && REFUSALS.has(code)) {
      throw new ProviderCallbackError("access_denied", "The user denied access at the provider", { cause: error });
    }
    if (code === "invalid_grant") throw new ProviderCallbackError("invalid_grant", "The provider refused the grant", { cause: error });
    if (code === "invalid_client") throw new ProviderCallbackError("invalid_client", "The provider refused the client credentials", { cause: error });
    throw new ProviderCallbackError("other", error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** A token endpoint's answer as Latchkey stores it; `askedScope` when the provider does not say what it granted. */
export function providerTokens(tokens: openid.TokenEndpointResponse & openid.TokenEndpointResponseHelpers, askedScope: string): ProviderTokens {
  const expiresIn = tokens.expiresIn();
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? null,
    expiresAt: expiresIn === undefined ? null : new Date(Date.now() + expiresIn * 1000),
    scopes: (tokens.scope ?? askedScope).split(/[\s,]+/).filter(Boolean),
  };
}
