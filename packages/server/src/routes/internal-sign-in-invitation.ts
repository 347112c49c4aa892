import { Hono } from "hono";
import { emailWithCallbackBody } from "@latchkey/protocol/schemas";
import { requireAccess } from "../http/auth.js";
import type { AppEnv } from "../http/context.js";
import { validate } from "../http/validate.js";
import { sendSignInInvitation } from "../services/sign-in-invitation.js";

/** `POST /internal/send-sign-in-invitation` (admin) `{ email, callback_url }` → `{ success: true }`. */
export function signInInvitationRoutes() {
  return new Hono<AppEnv>().post("/internal/send-sign-in-invitation", async (c) => {
    const { project } = requireAccess(c, ["admin"]);
    const { body } = validate(c, { body: emailWithCallbackBody });
    await sendSignInInvitation(c.get("deps"), project, { email: body.email, callbackUrl: body.callback_url });
    return c.json({ success: true }, 200);
  });
}
