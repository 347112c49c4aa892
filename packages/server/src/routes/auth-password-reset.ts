import { Hono } from "hono";
import { CODE_VALID_RESPONSE, emailWithCallbackBody, PASSWORD_RESET_SENT_RESPONSE, passwordResetBody, verificationCodeBody } from "@latchkey/protocol/schemas";
import { requireAccess } from "../http/auth.js";
import type { AppEnv } from "../http/context.js";
import { validate } from "../http/validate.js";
import { checkPasswordResetCode, resetPassword, sendPasswordResetCode } from "../services/password-reset.js";

/**
 * `/auth/password/send-reset-code`, `/auth/password/reset/check-code` and `/auth/password/reset`, for any
 * access type (the client library calls them with its publishable key, without a user). `send-reset-code`
 * answers the same for every email, so it never tells whether an account exists.
 */
export function passwordResetRoutes() {
  return new Hono<AppEnv>()
    .post("/auth/password/send-reset-code", async (c) => {
      const { project } = requireAccess(c, ["client", "server", "admin"]);
      const { body } = validate(c, { body: emailWithCallbackBody });
      await sendPasswordResetCode(c.get("deps"), project, { email: body.email, callbackUrl: body.callback_url });
      return c.json(PASSWORD_RESET_SENT_RESPONSE, 200);
    })
    .post("/auth/password/reset/check-code", async (c) => {
      const { project } = requireAccess(c, ["client", "server", "admin"]);
      const { body } = validate(c, { body: verificationCodeBody });
      await checkPasswordResetCode(c.get("deps").db, project, body.code);
      return c.json(CODE_VALID_RESPONSE, 200);
    })
    .post("/auth/password/reset", async (c) => {
      const { project } = requireAccess(c, ["client", "server", "admin"]);
      const { body } = validate(c, { body: passwordResetBody });
      await resetPassword(c.get("deps").db, project, { code: body.code, password: body.password });
      return c.json({ success: true }, 200);
    });
}
