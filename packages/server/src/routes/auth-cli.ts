import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { cliAuthCompleteBody, cliAuthPollBody, cliAuthStartBody, type CliAuthCheckResponse } from "@latchkey/protocol/schemas";
import { requireAccess } from "../http/auth.js";
import type { AppEnv } from "../http/context.js";
import { validate } from "../http/validate.js";
import { canCompleteCliAuth, completeCliAuth, pollCliAuth, startCliAuth } from "../services/cli-auth.js";

/** The protocol has no known error for an unusable login code: it answers a plain 400 with this text. */
const INVALID_LOGIN_CODE = "Invalid login code or the code has expired";

/**
 * `/auth/cli`, `/auth/cli/poll` and `/auth/cli/complete`: the command-line login flow (services/cli-auth.ts),
 * for any access type (the CLI and the confirmation page both hold only a publishable key).
 */
export function cliAuthRoutes() {
  return new Hono<AppEnv>()
    .post("/auth/cli", async (c) => {
      const { project } = requireAccess(c, ["client", "server", "admin"]);
      // The body is optional, as in the protocol: every field has a default.
      const body = c.get("body") === undefined ? {} : validate(c, { body: cliAuthStartBody }).body;
      return c.json(await startCliAuth(c.get("deps").db, project, { expiresInMillis: body.expires_in_millis }), 200);
    })
    .post("/auth/cli/poll", async (c) => {
      const { project } = requireAccess(c, ["client", "server", "admin"]);
      const { body } = validate(c, { body: cliAuthPollBody });
      const { db, env } = c.get("deps");
      const answer = await pollCliAuth(db, env, project, body.polling_code);
      // The protocol marks the one answer that carries the token with 201.
      return c.json(answer, answer.status === "success" ? 201 : 200);
    })
    .post("/auth/cli/complete", async (c) => {
      const { project } = requireAccess(c, ["client", "server", "admin"]);
      const { body } = validate(c, { body: cliAuthCompleteBody });
      const { db } = c.get("deps");
      if (body.mode === "check") {
        if (!(await canCompleteCliAuth(db, project, body.login_code))) throw new HTTPException(400, { message: INVALID_LOGIN_CODE });
        const answer: CliAuthCheckResponse = { cli_session_state: "none" };
        return c.json(answer, 200);
      }
      if (!(await completeCliAuth(db, project, { loginCode: body.login_code, refreshToken: body.refresh_token! }))) {
        throw new HTTPException(400, { message: INVALID_LOGIN_CODE });
      }
      return c.json({ success: true }, 200);
    });
}
