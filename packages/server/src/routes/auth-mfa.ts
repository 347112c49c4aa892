import { Hono } from "hono";
import { mfaSignInBody } from "@latchkey/protocol/schemas";
import { requireAccess } from "../http/auth.js";
import type { AppEnv } from "../http/context.js";
import { validate } from "../http/validate.js";
import { signInWithTotp } from "../services/mfa.js";

/**
 * `POST /auth/mfa/sign-in {type: "totp", totp, code}` (any access type, as the client library calls it with its
 * publishable key): the second factor after MULTI_FACTOR_AUTHENTICATION_REQUIRED, answered with the sign-in
 * response whose `is_new_user` is the first factor's.
 */
export function mfaAuthRoutes() {
  return new Hono<AppEnv>().post("/auth/mfa/sign-in", async (c) => {
    const { project } = requireAccess(c, ["client", "server", "admin"]);
    const { body } = validate(c, { body: mfaSignInBody });
    const { db, env } = c.get("deps");
    return c.json(await signInWithTotp(db, env, project, { attemptCode: body.code, totp: body.totp }), 200);
  });
}
