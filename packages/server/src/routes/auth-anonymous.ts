import { signInResponse } from "@latchkey/protocol/schemas";
import { defineRoute } from "../http/route.js";
import { signInUser } from "../services/sessions.js";
import { createUser } from "../services/users.js";

/**
 * `POST /auth/anonymous/sign-up`: a new anonymous user, signed in. Its access tokens have their own
 * audience (`<project>:anon`), so they are accepted only with `x-stack-allow-anonymous-user: true`; a
 * later password sign-up carrying such a token upgrades the same user.
 */
export const anonymousAuthRoutes = [
  defineRoute({
    method: "post",
    path: "/auth/anonymous/sign-up",
    summary: "Sign up as an anonymous user",
    description:
      "Allowed on every project, the `internal` one included, and even when sign-up is disabled, as in the protocol: " +
      "an anonymous user has no way to sign in again, so it opens no account anyone could enter. The body, if any, is ignored.",
    tags: ["Anonymous"],
    access: ["client", "server", "admin"],
    response: { description: "The new anonymous user, signed in.", schema: signInResponse },
    handler: async (c, { auth }) => {
      const { db, env } = c.get("deps");
      const user = await createUser(db, auth.project, { isAnonymous: true });
      const tokens = await signInUser(db, env, { project: auth.project, userId: user.id });
      return { access_token: tokens.access_token, refresh_token: tokens.refresh_token, user_id: user.id, is_new_user: true };
    },
  }),
];
