import * as openid from "openid-client";
import { ProviderCallbackError, type CallbackRequest, type ProviderTokens } from "./inner-client.js";

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

/**
 * The callback's code exchanged at the provider's token endpoint. A callback the provider did not send as it is (no
 * code, no or another `iss`: a URL put together by hand) is refused as an invalid grant, as the provider refuses a
 * code it never gave, and not as the provider failing. Parameters of other flows (implicit, hybrid, JARM) are not
 * the code flow's and are left out, rather than failing it.
 */
export async function exchangeCallbackCode(config: openid.Configuration, request: CallbackRequest): Promise<openid.TokenEndpointResponse & openid.TokenEndpointResponseHelpers> {
  const currentUrl = new URL(request.redirectUri);
  for (const [key, value] of request.params) if (!OTHER_FLOWS.has(key)) currentUrl.searchParams.set(key, value);
  if (!currentUrl.searchParams.get("error") && !currentUrl.searchParams.get("code")) {
    throw new ProviderCallbackError("invalid_grant", "The callback carries no authorization code");
  }
  return mapProviderErrors(async () => {
    try {
      return await openid.authorizationCodeGrant(config, currentUrl, { pkceCodeVerifier: request.codeVerifier, expectedState: request.state });
    } catch (error) {
      if (rejectsCallbackParameters(error)) throw new ProviderCallbackError("invalid_grant", "The callback's parameters are not the provider's", { cause: error });
      throw error;
    }
  });
}

const OTHER_FLOWS = new Set(["id_token", "token", "response"]);

/** openid-client's check of the callback's parameters failed (its error's cause holds them), before any request. */
function rejectsCallbackParameters(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 4; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof openid.AuthorizationResponseError) return false;
    if ((current as { parameters?: unknown }).parameters instanceof URLSearchParams) return true;
  }
  return false;
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
