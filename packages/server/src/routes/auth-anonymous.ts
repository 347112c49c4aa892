import { Hono } from "hono";
import { KnownErrors } from "@latchkey/protocol/errors";
import type { SignInResponse } from "@latchkey/protocol/schemas";
import { requireAccess } from "../http/auth.js";
import type { AppEnv } from "../http/context.js";
import { INTERNAL_PROJECT_ID } from "../services/projects.js";
import { signInUser } from "../services/sessions.js";
import { createUser } from "../services/users.js";

/**
 * `POST /auth/anonymous/sign-up`: a new anonymous user, signed in. Its access tokens have their own
 * audience (`<project>:anon`), so they are accepted only with `x-stack-allow-anonymous-user: true`; a
 * later password sign-up carrying such a token upgrades the same user.
 */
export function anonymousAuthRoutes() {
  return new Hono<AppEnv>().post("/auth/anonymous/sign-up", async (c) => {
    const { project } = requireAccess(c, ["client", "server", "admin"]);
    // The protocol's config has no switch for anonymous accounts: every project has them, except the
    // internal one, whose users administer projects (SPEC.md §6).
    if (project.id === INTERNAL_PROJECT_ID) throw new KnownErrors.AnonymousAccountsNotEnabled();
    const { db, env } = c.get("deps");
    const user = await createUser(db, project, { isAnonymous: true });
    const tokens = await signInUser(db, env, { projectId: project.id, userId: user.id });
    const response: SignInResponse = { access_token: tokens.access_token, refresh_token: tokens.refresh_token, user_id: user.id, is_new_user: true };
    return c.json(response, 200);
  });
}
