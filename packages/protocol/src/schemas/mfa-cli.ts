import { z } from "zod";
import { newerField } from "./dialect-fields.js";

/**
 * Wire shapes of the second sign-in factor (`/auth/mfa/sign-in`, TOTP) and the command-line login flow
 * (`/auth/cli`, `/auth/cli/poll`, `/auth/cli/complete`). SPEC.md §4 "MFA", "CLI login"; §9 for the timings.
 */

/** `POST /auth/mfa/sign-in`: the 6-digit TOTP and the attempt code of MULTI_FACTOR_AUTHENTICATION_REQUIRED. */
export const mfaSignInBody = z.strictObject({
  type: z.enum(["totp"]),
  totp: z.string(),
  code: z.string(),
});
export type MfaSignInBody = z.infer<typeof mfaSignInBody>;

/** A CLI login lasts 2 hours unless asked otherwise, and at most a day (as the protocol's defaults). */
export const CLI_AUTH_DEFAULT_EXPIRES_IN_MILLIS = 1000 * 60 * 120;
export const CLI_AUTH_MAX_EXPIRES_IN_MILLIS = 1000 * 60 * 60 * 24;

/** `POST /auth/cli` (the body may be omitted). */
export const cliAuthStartBody = z.strictObject({
  expires_in_millis: z.number().min(0).max(CLI_AUTH_MAX_EXPIRES_IN_MILLIS).optional(),
  /**
   * The refresh token of the anonymous session the command-line tool had so far, if any: the confirmation
   * page's check then answers `cli_session_state: "anonymous"`.
   */
  anon_refresh_token: newerField(z.string().optional()),
});
export type CliAuthStartBody = z.infer<typeof cliAuthStartBody>;

export const cliAuthStartResponse = z.strictObject({
  /** Kept by the command-line tool, which polls with it. */
  polling_code: z.string(),
  /** Put in the confirmation page's URL (`{handler}/cli-auth-confirm?login_code=…`). */
  login_code: z.string(),
  /** ISO 8601. */
  expires_at: z.string(),
});
export type CliAuthStartResponse = z.infer<typeof cliAuthStartResponse>;

/** `POST /auth/cli/poll` */
export const cliAuthPollBody = z.strictObject({
  polling_code: z.string(),
});
export type CliAuthPollBody = z.infer<typeof cliAuthPollBody>;

/** 200 for waiting, expired and used; 201 for the one success, which carries the refresh token. */
export const cliAuthPollResponse = z.union([
  z.strictObject({ status: z.enum(["waiting", "expired", "used"]) }),
  z.strictObject({ status: z.literal("success"), refresh_token: z.string() }),
]);
export type CliAuthPollResponse = z.infer<typeof cliAuthPollResponse>;

/**
 * `POST /auth/cli/complete`: `complete` (the default) hands the signed-in user's session to the waiting
 * command-line tool and needs `refresh_token`; `check` only tells whether the login code can still be completed.
 */
export const cliAuthCompleteBody = z
  .strictObject({
    login_code: z.string(),
    mode: z.enum(["check", "complete"]).optional(),
    refresh_token: z.string().optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.mode ?? "complete") === "complete" && body.refresh_token === undefined) {
      ctx.addIssue({ code: "custom", path: ["refresh_token"], message: "must be defined" });
    }
  });
export type CliAuthCompleteBody = z.infer<typeof cliAuthCompleteBody>;

/**
 * The answer of the `check` mode: whether the command-line tool is signed in anonymously (it sent its
 * anonymous session's refresh token when it started, which only 2.8.108 clients do), or not at all.
 */
export const cliAuthCheckResponse = z.strictObject({ cli_session_state: z.enum(["none", "anonymous"]) });
export type CliAuthCheckResponse = z.infer<typeof cliAuthCheckResponse>;

/** `check` answers whether the code can be completed; `complete` answers `{ success: true }`. */
export const cliAuthCompleteResponse = z.union([cliAuthCheckResponse, z.strictObject({ success: z.literal(true) })]);
