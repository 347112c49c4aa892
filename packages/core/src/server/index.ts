/**
 * @latchkey/core/server: reading the signed-in user on your own server. Access tokens are verified against
 * the project's public keys (its JWKS, fetched once and cached), so a request costs no call to Latchkey.
 *
 * @example
 * ```ts
 * import { createTokenVerifier } from "@latchkey/core/server";
 * const latchkey = createTokenVerifier({ projectId: process.env.LATCHKEY_PROJECT_ID!, baseUrl: "http://localhost:8102" });
 * const user = await latchkey.getUser(request); // null when signed out
 * ```
 */
export { createTokenVerifier, type AccessTokenPayload, type AuthenticatedUser, type TokenVerifier, type TokenVerifierOptions } from "./token-verifier.js";
export { headersOf, tokensOfIncomingRequest, type IncomingRequest } from "./request-tokens.js";
