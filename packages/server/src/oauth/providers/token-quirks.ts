import * as openid from "openid-client";

/**
 * Token endpoints that depart from RFC 6749 §5, rewritten into its shape before openid-client reads them, so
 * that its checks pass and a refused code or refresh token reaches the routes as `invalid_grant` whatever the
 * provider's dialect. Each function is pure (status and JSON body in, status and body out) and tested alone.
 */

export interface TokenAnswer {
  status: number;
  body: unknown;
}

/** Rewrites one token endpoint answer; `undefined` leaves it as it came. */
export type TokenAnswerFix = (answer: TokenAnswer) => TokenAnswer | undefined;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const oauthError = (error: string, description: unknown, status = 400): TokenAnswer => ({
  status,
  body: { error, ...(typeof description === "string" ? { error_description: description } : {}) },
});

/**
 * GitHub answers errors with status 200 and codes of its own
 * (https://docs.github.com/en/apps/oauth-apps/maintaining-oauth-apps/troubleshooting-oauth-app-access-token-request-errors,
 * and `bad_refresh_token` for refreshes of expiring user tokens).
 */
export const githubTokenAnswer: TokenAnswerFix = ({ body }) => {
  if (!isObject(body) || typeof body.error !== "string") return undefined;
  const codes: Record<string, string> = { bad_verification_code: "invalid_grant", bad_refresh_token: "invalid_grant", incorrect_client_credentials: "invalid_client" };
  return oauthError(codes[body.error] ?? body.error, body.error_description);
};

/**
 * Twitch grants `scope` as an array, which RFC 6749 (and openid-client) wants space-separated, and refuses
 * codes and refresh tokens with `{ status, message }` bodies
 * (https://dev.twitch.tv/docs/authentication/getting-tokens-oauth/#authorization-code-grant-flow,
 * https://dev.twitch.tv/docs/authentication/refresh-tokens/).
 */
export const twitchTokenAnswer: TokenAnswerFix = ({ status, body }) => {
  if (!isObject(body)) return undefined;
  if (status === 200 && Array.isArray(body.scope)) return { status, body: { ...body, scope: body.scope.join(" ") } };
  if (status < 400 || typeof body.message !== "string") return undefined;
  if (/invalid (authorization code|refresh token)/i.test(body.message)) return oauthError("invalid_grant", body.message);
  if (/invalid client/i.test(body.message)) return oauthError("invalid_client", body.message);
  return oauthError("invalid_request", body.message);
};

/**
 * Facebook's Graph API nests its errors (`{ error: { message, type, code } }`); a used or expired code is
 * an OAuthException about the "authorization code", a wrong secret one about the "client secret"
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling).
 */
export const facebookTokenAnswer: TokenAnswerFix = ({ status, body }) => {
  if (status < 400 || !isObject(body) || !isObject(body.error)) return undefined;
  const message = typeof body.error.message === "string" ? body.error.message : "";
  if (/authorization code|verification code/i.test(message)) return oauthError("invalid_grant", message);
  if (/client secret|client_id|app id/i.test(message)) return oauthError("invalid_client", message);
  return oauthError("invalid_request", message);
};

/**
 * X and LinkedIn refuse a bad, used or expired code (X: a bad refresh token too) as `invalid_request`, saying
 * so only in the description ("Value passed for the authorization code was invalid.", "… does not match
 * authorization code. Or authorization code expired.").
 */
export const invalidRequestAboutGrant: TokenAnswerFix = ({ status, body }) => {
  if (status < 400 || !isObject(body) || body.error !== "invalid_request" || typeof body.error_description !== "string") return undefined;
  if (!/authorization code|value passed for the token/i.test(body.error_description)) return undefined;
  return oauthError("invalid_grant", body.error_description, status);
};

/**
 * Makes openid-client read the configuration's token endpoint through `fix`. Other requests (the provider's
 * profile API) pass untouched.
 */
export function fixTokenAnswers(config: openid.Configuration, fix: TokenAnswerFix): void {
  const tokenEndpoint = new URL(config.serverMetadata().token_endpoint!).href;
  config[openid.customFetch] = async (url, options) => {
    const response = await fetch(url, options as RequestInit);
    if (new URL(url).href !== tokenEndpoint || !(response.headers.get("content-type") ?? "").includes("json")) return response;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return new Response(text, { status: response.status, headers: response.headers });
    }
    const fixed = fix({ status: response.status, body }) ?? { status: response.status, body };
    const headers = new Headers(response.headers);
    // The body is re-encoded: the original length and encoding no longer describe it.
    headers.delete("content-length");
    headers.delete("content-encoding");
    headers.set("content-type", "application/json");
    return new Response(JSON.stringify(fixed.body), { status: fixed.status, headers });
  };
}
