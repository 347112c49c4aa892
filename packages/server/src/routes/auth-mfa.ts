import { KnownErrors } from "@latchkey/protocol/errors";
import { mfaSignInBody, signInResponse } from "@latchkey/protocol/schemas";
import { attemptIp } from "../http/client-ip.js";
import { defineRoute } from "../http/route.js";
import { signInWithTotp } from "../services/mfa.js";

/**
 * `POST /auth/mfa/sign-in {type: "totp", totp, code}` (any access type, as the client library calls it with its
 * publishable key): the second factor after MULTI_FACTOR_AUTHENTICATION_REQUIRED, answered with the sign-in
 * response whose `is_new_user` is the first factor's.
 */
export const mfaAuthRoutes = [
  defineRoute({
    method: "post",
    path: "/auth/mfa/sign-in",
    summary: "Finish a sign-in with a TOTP code",
    description: "`code` is the attempt code of MULTI_FACTOR_AUTHENTICATION_REQUIRED, `totp` the authenticator's 6 digits.",
    tags: ["Multi-factor authentication"],
    access: ["client", "server", "admin"],
    request: { body: mfaSignInBody },
    response: { description: "The user, signed in.", schema: signInResponse },
    errors: [KnownErrors.InvalidTotpCode, KnownErrors.VerificationCodeNotFound, KnownErrors.VerificationCodeExpired, KnownErrors.VerificationCodeAlreadyUsed, KnownErrors.VerificationCodeMaxAttemptsReached],
    handler: (c, { auth, body }) => {
      const { db, env } = c.get("deps");
      return signInWithTotp(db, env, auth.project, { attemptCode: body.code, totp: body.totp, clientIp: attemptIp(c, auth.type) });
    },
  }),
];
