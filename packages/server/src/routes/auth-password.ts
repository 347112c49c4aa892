import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import { passwordSetBody, passwordSignInBody, passwordSignUpBody, passwordUpdateBody } from "@latchkey/protocol/schemas";
import { requireAccess } from "../http/auth.js";
import type { AppEnv } from "../http/context.js";
import { validate } from "../http/validate.js";
import { changePassword, setInitialPassword, signInWithPassword, signUpWithPassword } from "../services/password-auth.js";

/**
 * `/auth/password/*`: sign-up and sign-in with email and password (any access type, as the client
 * library calls them with its publishable key), and changing or setting the signed-in user's password.
 * Sign-up and sign-in answer with the sign-in response `{ access_token, refresh_token, user_id, is_new_user }`.
 */
export function passwordAuthRoutes() {
  return new Hono<AppEnv>()
    .post("/auth/password/sign-up", async (c) => {
      const auth = requireAccess(c, ["client", "server", "admin"]);
      const { body } = validate(c, { body: passwordSignUpBody });
      const { db, env } = c.get("deps");
      const response = await signUpWithPassword(db, env, auth.project, {
        email: body.email,
        password: body.password,
        verificationCallbackUrl: body.verification_callback_url,
        currentUser: auth.user,
        log: c.get("log"),
      });
      return c.json(response, 200);
    })
    .post("/auth/password/sign-in", async (c) => {
      const auth = requireAccess(c, ["client", "server", "admin"]);
      const { body } = validate(c, { body: passwordSignInBody });
      const { db, env } = c.get("deps");
      return c.json(await signInWithPassword(db, env, auth.project, body.email, body.password), 200);
    })
    .post("/auth/password/update", async (c) => {
      const auth = requireAccess(c, ["client", "server", "admin"]);
      const { body } = validate(c, { body: passwordUpdateBody });
      if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
      await changePassword(c.get("deps").db, auth.project, auth.user, {
        oldPassword: body.old_password,
        newPassword: body.new_password,
        keepSessionId: auth.refreshTokenId,
      });
      return c.json({ success: true }, 200);
    })
    .post("/auth/password/set", async (c) => {
      const auth = requireAccess(c, ["client", "server", "admin"]);
      const { body } = validate(c, { body: passwordSetBody });
      if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
      // The protocol has no known error for this case; it answers with a plain 400.
      if (!(await setInitialPassword(c.get("deps").db, auth.project, auth.user, body.password))) {
        throw new HTTPException(400, { message: "User already has a password set." });
      }
      return c.json({ success: true }, 200);
    });
}
