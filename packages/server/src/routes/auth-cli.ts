import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import {
  cliAuthCompleteBody,
  cliAuthCompleteResponse,
  cliAuthPollBody,
  cliAuthPollResponse,
  cliAuthStartBody,
  cliAuthStartResponse,
} from "@latchkey/protocol/schemas";
import type { Context } from "hono";
import { attemptIp } from "../http/client-ip.js";
import type { AppEnv, RequestAuth } from "../http/context.js";
import { ANY_ACCESS, defineRoute } from "../http/route.js";
import { throttledAttempt, type ThrottleSubject } from "../services/auth-throttle.js";
import { cliAuthSessionState, completeCliAuth, pollCliAuth, startCliAuth } from "../services/cli-auth.js";

/** The protocol has no known error for an unusable login code: it answers a plain 400 with this text. */
const INVALID_LOGIN_CODE = "Invalid login code or the code has expired";
const invalidLoginCode = () => new HTTPException(400, { message: INVALID_LOGIN_CODE });

/**
 * Polling and login codes are secrets: a code that does not exist counts against the client address
 * (services/auth-throttle.ts). Polling a real code that is still waiting is the flow working and costs nothing.
 */
const cliAttempt = (c: Context<AppEnv>, auth: RequestAuth): ThrottleSubject => ({ kind: "cli_code", projectId: auth.project.id, clientIp: attemptIp(c, auth.type) });
const isUnknownCode = (error: unknown) =>
  error instanceof KnownErrors.InvalidPollingCodeError || (error instanceof HTTPException && error.status === 400 && error.message === INVALID_LOGIN_CODE);
const TAGS = ["CLI login"];

/**
 * `/auth/cli`, `/auth/cli/poll` and `/auth/cli/complete`: the command-line login flow (services/cli-auth.ts),
 * for any access type (the CLI and the confirmation page both hold only a publishable key).
 */
export const cliAuthRoutes = [
  defineRoute({
    method: "post",
    path: "/auth/cli",
    summary: "Start a command-line login",
    description:
      "The body may be left out, as in the protocol: every field has a default. A 2.8.108 tool signed in anonymously sends its " +
      "session's `anon_refresh_token`, which the confirmation page's check then reports (`cli_session_state: \"anonymous\"`).",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: cliAuthStartBody.optional() },
    response: { description: "The polling code (kept by the CLI) and the login code (for the confirmation page).", schema: cliAuthStartResponse },
    handler: (c, { auth, body }) =>
      startCliAuth(c.get("deps").db, auth.project, { expiresInMillis: body?.expires_in_millis, anonRefreshToken: body?.anon_refresh_token }),
  }),
  defineRoute({
    method: "post",
    path: "/auth/cli/poll",
    summary: "Poll a command-line login",
    description: "`waiting`, `expired` and `used` answer 200; the one `success`, which carries the refresh token, answers 201.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: cliAuthPollBody },
    response: { description: "Where the login stands.", schema: cliAuthPollResponse },
    errors: [KnownErrors.InvalidPollingCodeError],
    handler: async (c, { auth, body }) => {
      const { db, env } = c.get("deps");
      const answer = await throttledAttempt(db, cliAttempt(c, auth), () => pollCliAuth(db, env, auth.project, body.polling_code), isUnknownCode);
      // The protocol marks the one answer that carries the token with 201.
      return answer.status === "success" ? c.json(answer, 201) : answer;
    },
  }),
  defineRoute({
    method: "post",
    path: "/auth/cli/complete",
    summary: "Confirm a command-line login",
    description:
      "`complete` (the default) stores the signed-in person's refresh token, as given, for the waiting CLI's next poll; `check` only " +
      "tells whether the login code can still be completed. An unknown, completed or expired code is a plain 400, checked first.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: cliAuthCompleteBody },
    response: { description: "`{ cli_session_state }` for `check`, `{ success: true }` for `complete`.", schema: cliAuthCompleteResponse },
    handler: async (c, { auth, body }) => {
      const { db, env } = c.get("deps");
      return throttledAttempt(
        db,
        cliAttempt(c, auth),
        async () => {
          if (body.mode === "check") {
            const state = await cliAuthSessionState(db, auth.project, body.login_code);
            if (!state) throw invalidLoginCode();
            return { cli_session_state: state };
          }
          if (!(await completeCliAuth(db, env, auth.project, { loginCode: body.login_code, refreshToken: body.refresh_token! }))) throw invalidLoginCode();
          return { success: true } as const;
        },
        isUnknownCode,
      );
    },
  }),
];
