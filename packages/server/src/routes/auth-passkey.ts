import { KnownErrors } from "@latchkey/protocol/errors";
import {
  initiatePasskeyBody,
  initiatePasskeyResponse,
  passkeyRegisterBody,
  passkeyRegisterResponse,
  passkeySignInBody,
  passkeySignInResponse,
} from "@latchkey/protocol/schemas";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { attemptIp } from "../http/client-ip.js";
import { ANY_ACCESS, defineRoute } from "../http/route.js";
import { throttledAttempt } from "../services/auth-throttle.js";
import { initiatePasskeyAuthentication, initiatePasskeyRegistration, registerPasskey, signInWithPasskey } from "../services/passkeys.js";

const TAGS = ["Passkeys"];
const PASSKEYS_OFF = KnownErrors.PasskeyAuthenticationNotEnabled;
const CODE_ERRORS = [KnownErrors.VerificationCodeNotFound, KnownErrors.VerificationCodeAlreadyUsed, KnownErrors.VerificationCodeExpired];

/**
 * `/auth/passkey/*` (SPEC.md §4 "Passkey", §7 "Auth"), for any access type. Registration needs a signed-in
 * user; sign-in answers with the sign-in response (or MULTI_FACTOR_AUTHENTICATION_REQUIRED). The page's
 * Origin header, when the browser sends one, decides the relying party (services/passkeys.ts).
 */
export const passkeyAuthRoutes = [
  defineRoute({
    method: "post",
    path: "/auth/passkey/initiate-passkey-registration",
    summary: "Start registering a passkey",
    description: "WebAuthn creation options for the signed-in user, and the code that names their challenge.",
    tags: TAGS,
    access: ANY_ACCESS,
    requiresUser: true,
    request: { body: initiatePasskeyBody },
    response: { description: "Options for `navigator.credentials.create()`.", schema: initiatePasskeyResponse },
    errors: [PASSKEYS_OFF, KnownErrors.PasskeyRegistrationFailed],
    handler: async (c, { auth }) => {
      const user = auth.user!;
      const name = auth.userRecord?.primaryEmail?.value ?? null;
      const { db, env } = c.get("deps");
      return initiatePasskeyRegistration(db, env, auth.project, { id: user.id, name, displayName: user.display_name }, c.req.header("origin"));
    },
  }),
  defineRoute({
    method: "post",
    path: "/auth/passkey/register",
    summary: "Register a passkey",
    description: "Verifies the authenticator's answer (free-form JSON, as the browser library made it) and makes it the user's passkey, replacing any other.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: passkeyRegisterBody },
    response: { description: "The registered credential's id.", schema: passkeyRegisterResponse },
    errors: [KnownErrors.UserAuthenticationRequired, PASSKEYS_OFF, KnownErrors.PasskeyRegistrationFailed, ...CODE_ERRORS],
    handler: async (c, { auth, body }) => {
      if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
      const { db, env } = c.get("deps");
      return registerPasskey(db, env, auth.project, auth.user.id, { credential: body.credential, code: body.code, pageOrigin: c.req.header("origin") });
    },
  }),
  defineRoute({
    method: "post",
    path: "/auth/passkey/initiate-passkey-authentication",
    summary: "Start signing in with a passkey",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: initiatePasskeyBody },
    response: { description: "Options for `navigator.credentials.get()`.", schema: initiatePasskeyResponse },
    errors: [PASSKEYS_OFF, KnownErrors.PasskeyAuthenticationFailed],
    handler: async (c, { auth }) => {
      const { db, env } = c.get("deps");
      return initiatePasskeyAuthentication(db, env, auth.project, c.req.header("origin"));
    },
  }),
  defineRoute({
    method: "post",
    path: "/auth/passkey/sign-in",
    summary: "Sign in with a passkey",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: passkeySignInBody },
    response: { description: "The new session's tokens.", schema: passkeySignInResponse },
    errors: [PASSKEYS_OFF, KnownErrors.PasskeyAuthenticationFailed, KnownErrors.MultiFactorAuthenticationRequired, ...CODE_ERRORS],
    handler: async (c, { auth, body }) => {
      const { db, env } = c.get("deps");
      const response = body.authentication_response as unknown as AuthenticationResponseJSON;
      // Failed assertions count against the client address (services/auth-throttle.ts).
      return throttledAttempt(
        db,
        { kind: "passkey", projectId: auth.project.id, clientIp: attemptIp(c, auth.type) },
        () => signInWithPasskey(db, env, auth.project, { response, code: body.code, pageOrigin: c.req.header("origin") }),
        (error) => error instanceof KnownErrors.PasskeyAuthenticationFailed,
      );
    },
  }),
];
