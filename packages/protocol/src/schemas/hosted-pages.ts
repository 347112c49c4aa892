import { z } from "zod";
import { callbackUrl } from "./auth.js";
import { verificationCode } from "./email-flows.js";

/**
 * Wire shapes of the session hand-off between the handler pages a Latchkey server hosts for a project and
 * the app on another origin (issue 16 §5; a Latchkey extension, not part of the Stack Auth protocol). The
 * app keeps a PKCE verifier (RFC 7636, S256) and sends its challenge along with the people it sends to the
 * hosted pages; once they are signed in there, the hosted page asks for a one-time code bound to that
 * challenge and to the app's page, and the app trades code and verifier for a session of its own.
 */

/** RFC 7636 §4.2: BASE64URL(SHA256(verifier)), 43 characters. */
const s256Challenge = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "must be an S256 code challenge (43 base64url characters)");

/** `POST /auth/hosted-pages/handoff` (the signed-in user of a hosted page). */
export const hostedHandoffBody = z.strictObject({
  /** The app's page the code is for; must be trusted by the project. */
  redirect_uri: callbackUrl,
  code_challenge: s256Challenge,
});
export type HostedHandoffBody = z.infer<typeof hostedHandoffBody>;

export const hostedHandoffResponse = z.strictObject({ code: z.string() });
export type HostedHandoffResponse = z.infer<typeof hostedHandoffResponse>;

/** `POST /auth/hosted-pages/handoff/sign-in` (the app): the code, the verifier behind its challenge, the same page. */
export const hostedHandoffSignInBody = z.strictObject({
  code: verificationCode,
  // RFC 7636 §4.1: 43 to 128 characters of the unreserved set.
  code_verifier: z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/, "must be a PKCE code verifier (43 to 128 unreserved characters)"),
  redirect_uri: callbackUrl,
});
export type HostedHandoffSignInBody = z.infer<typeof hostedHandoffSignInBody>;
