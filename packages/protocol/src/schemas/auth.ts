import { z } from "zod";
import { userIdOrMe, uuid } from "./ids.js";
import { emailAddress, protocolUrl } from "./project-config.js";
import { newerField } from "./dialect-fields.js";

/**
 * Wire shapes of sign-up, sign-in and sessions: `/auth/password/*`, `/auth/anonymous/sign-up`,
 * `/auth/sessions*`, the refresh grant of `/auth/oauth/token`, and a project's JWKS.
 * SPEC.md §3 "Sign-in response", "Session", "Access token payload"; §5 and §9 for the limits.
 */

/** Password length bounds, counted in UTF-16 code units (JavaScript string length), as the protocol counts them. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 70;

/**
 * Which requirement a new password misses, or undefined when it is acceptable. The server turns this into
 * PASSWORD_TOO_SHORT (`details.min_length`) or PASSWORD_TOO_LONG (`details.maxLength`); a form can use it
 * to explain the rule before submitting.
 */
export function passwordRequirementProblem(password: string): { tooShort: number } | { tooLong: number } | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return { tooShort: PASSWORD_MIN_LENGTH };
  if (password.length > PASSWORD_MAX_LENGTH) return { tooLong: PASSWORD_MAX_LENGTH };
  return undefined;
}

/** An absolute URL without spaces, such as the base of an e-mail verification link (the protocol's URL check). */
export const callbackUrl = protocolUrl;

// A new password is any string here: its length rules are reported as PASSWORD_TOO_SHORT/PASSWORD_TOO_LONG
// (which the client library catches as "requirements not met"), not as a schema error.
const newPassword = z.string();
// A password being checked is never length-limited: an imported hash may stand for a longer one.
const presentedPassword = z.string();

/**
 * A bot challenge's answer, which 2.8.108 clients send with sign-ups and code sign-ins when the app has a
 * challenge site key configured. Latchkey has no bot-challenge provider to verify it with: the fields are
 * accepted and ignored, and a sign-up is never asked for a challenge (BOT_CHALLENGE_REQUIRED).
 */
export const botChallengeFields = {
  bot_challenge_token: newerField(z.string().optional()),
  bot_challenge_phase: newerField(z.enum(["invisible", "visible"]).optional()),
  // The client sends the string "true".
  bot_challenge_unavailable: newerField(z.union([z.enum(["true", "false"]), z.boolean()]).optional()),
};

/**
 * `POST /auth/password/sign-up`. Without `verification_callback_url` no verification mail is sent (a link
 * needs a page to land on); the user can ask for one later. Both versions may leave it out.
 */
export const passwordSignUpBody = z.strictObject({
  email: emailAddress,
  password: newPassword,
  verification_callback_url: callbackUrl.optional(),
  ...botChallengeFields,
});
export type PasswordSignUpBody = z.infer<typeof passwordSignUpBody>;

/** `POST /auth/password/sign-in` */
export const passwordSignInBody = z.strictObject({
  email: emailAddress,
  password: presentedPassword,
});
export type PasswordSignInBody = z.infer<typeof passwordSignInBody>;

/** `POST /auth/password/update` (signed-in user) */
export const passwordUpdateBody = z.strictObject({
  old_password: presentedPassword,
  new_password: newPassword,
});
export type PasswordUpdateBody = z.infer<typeof passwordUpdateBody>;

/** `POST /auth/password/set` (signed-in user without a password) */
export const passwordSetBody = z.strictObject({
  password: newPassword,
});
export type PasswordSetBody = z.infer<typeof passwordSetBody>;

/**
 * The body of every sign-in and sign-up (password, anonymous, code, second factor, passkey). `is_new_user` is
 * in every one of them (our spec asks for it), though the protocol's own server leaves it out of password and
 * anonymous answers; clients ignore it.
 */
export const signInResponse = z.strictObject({
  access_token: z.string(),
  refresh_token: z.string(),
  user_id: z.string(),
  is_new_user: z.boolean(),
});
export type SignInResponse = z.infer<typeof signInResponse>;

/** Server sessions last at most 367 days (SPEC.md §6: a year by default). */
export const SESSION_MAX_EXPIRES_IN_MILLIS = 1000 * 60 * 60 * 24 * 367;
export const SESSION_DEFAULT_EXPIRES_IN_MILLIS = 1000 * 60 * 60 * 24 * 365;

/** `POST /auth/sessions` (server): a session for any user, e.g. to act as them (impersonation). */
export const sessionCreateBody = z.strictObject({
  user_id: uuid,
  expires_in_millis: z.number().max(SESSION_MAX_EXPIRES_IN_MILLIS).default(SESSION_DEFAULT_EXPIRES_IN_MILLIS),
  is_impersonation: z.boolean().default(false),
});
export type SessionCreateBody = z.infer<typeof sessionCreateBody>;

export const sessionCreateResponse = z.strictObject({
  refresh_token: z.string(),
  access_token: z.string(),
});
export type SessionCreateResponse = z.infer<typeof sessionCreateResponse>;

/** `POST /auth/sessions/current/refresh`: a new access token for the session of `x-stack-refresh-token`. */
export const sessionRefreshResponse = z.strictObject({ access_token: z.string() });

/** `GET /auth/sessions?user_id=` */
export const sessionListQuery = z.object({ user_id: userIdOrMe });

/** `DELETE /auth/sessions/{id}?user_id=` (servers may leave `user_id` out) */
export const sessionDeleteQuery = z.object({ user_id: userIdOrMe.optional() });

/** `DELETE /auth/sessions/{id}` */
export const sessionIdParams = z.object({ id: z.string() });

/** Where a session was last used from; location fields are null when unknown. */
export const endUserIpInfo = z.strictObject({
  ip: z.string(),
  countryCode: z.string().nullable(),
  regionCode: z.string().nullable(),
  cityName: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  tzIdentifier: z.string().nullable(),
});
export type EndUserIpInfo = z.infer<typeof endUserIpInfo>;

/** One session in `GET /auth/sessions`; times in ms since the epoch. */
export const sessionRead = z.strictObject({
  id: z.string(),
  user_id: z.string(),
  created_at: z.number(),
  is_impersonation: z.boolean(),
  last_used_at: z.number().optional(),
  is_current_session: z.boolean(),
  last_used_at_end_user_ip_info: endUserIpInfo.optional(),
  last_used_at_user_agent: z
    .string()
    .max(512)
    .optional()
    .meta({
      description:
        "Latchkey extension (not in the Stack Auth protocol): the User-Agent header of the session's last use (at most 512 characters), " +
        "for telling the user which browser and system it is. Absent when the request named none (and for a session a server made, until its first refresh).",
    }),
});
export type SessionRead = z.infer<typeof sessionRead>;

/** `GET /auth/sessions`: every live session of the user, newest first, in one page. */
export const sessionListResponse = z.strictObject({
  items: z.array(sessionRead),
  is_paginated: z.literal(false),
});

/** RFC 6749 §5.1: what the token endpoint returns for a refresh grant. */
export const tokenResponse = z.strictObject({
  access_token: z.string(),
  token_type: z.literal("bearer"),
  expires_in: z.number(),
  refresh_token: z.string(),
});
export type TokenResponse = z.infer<typeof tokenResponse>;

/** RFC 6749 §5.2 error codes the token endpoint uses where the known-error catalogue has no entry. */
export type OAuthTokenErrorCode = "invalid_request" | "unsupported_grant_type";

/** RFC 6749 §5.2: the body of those errors. */
export const oauthTokenErrorResponse = z.strictObject({
  error: z.enum(["invalid_request", "unsupported_grant_type"]),
  error_description: z.string(),
});

/** `GET /projects/{id}/.well-known/jwks.json?include_anonymous=` */
export const jwksQuery = z.object({ include_anonymous: z.enum(["true", "false"]).optional() });
