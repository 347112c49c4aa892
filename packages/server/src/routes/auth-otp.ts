import { Hono } from "hono";
import { CODE_VALID_RESPONSE, emailWithCallbackBody, verificationCodeBody, type SendSignInCodeResponse } from "@latchkey/protocol/schemas";
import { requireAccess } from "../http/auth.js";
import type { AppEnv } from "../http/context.js";
import { validate } from "../http/validate.js";
import { checkSignInCode, sendSignInCode, signInWithCode } from "../services/otp-sign-in.js";

/**
 * `/auth/otp/send-sign-in-code`, `/auth/otp/sign-in` and `/auth/otp/sign-in/check-code` (magic link and
 * one-time code), for any access type. `sign-in` answers with the sign-in response, `is_new_user` telling
 * whether the code made a new account.
 */
export function otpAuthRoutes() {
  return new Hono<AppEnv>()
    .post("/auth/otp/send-sign-in-code", async (c) => {
      const { project } = requireAccess(c, ["client", "server", "admin"]);
      const { body } = validate(c, { body: emailWithCallbackBody });
      const response: SendSignInCodeResponse = await sendSignInCode(c.get("deps"), project, { email: body.email, callbackUrl: body.callback_url });
      return c.json(response, 200);
    })
    .post("/auth/otp/sign-in/check-code", async (c) => {
      const { project } = requireAccess(c, ["client", "server", "admin"]);
      const { body } = validate(c, { body: verificationCodeBody });
      await checkSignInCode(c.get("deps").db, project, body.code);
      return c.json(CODE_VALID_RESPONSE, 200);
    })
    .post("/auth/otp/sign-in", async (c) => {
      const { project } = requireAccess(c, ["client", "server", "admin"]);
      const { body } = validate(c, { body: verificationCodeBody });
      const { db, env } = c.get("deps");
      return c.json(await signInWithCode(db, env, project, body.code), 200);
    });
}
