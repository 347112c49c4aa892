import { z } from "zod";
import { userIdOrMe, uuid } from "./ids.js";
import { PASSWORD_MAX_LENGTH } from "./auth.js";
import { MAX_DISPLAY_NAME_LENGTH, imageUrl, isLooseEmail } from "./project-config.js";
import { teamClientRead, teamServerRead } from "./teams.js";
import { hasNul, metadata } from "./metadata.js";
import { CLIENT_UPLOADED_IMAGE_DESCRIPTION } from "./profile-images.js";
import { newerField } from "./dialect-fields.js";
import { queryPageSize } from "./list-response.js";

export { MAX_METADATA_BYTES, MAX_METADATA_DEPTH, metadataProblem } from "./metadata.js";

/**
 * Wire shapes of users: `POST /users`, `GET/PATCH/DELETE /users/{id}` (server and admin), `GET /users`,
 * and `GET/PATCH/DELETE /users/me` (the client shape names fewer writable fields).
 * SPEC.md §3 "Current user", §5 for the limits, §7 "Users and contact channels".
 */

/**
 * A string of at most `maximum` UTF-16 code units (JavaScript's `length`), the unit the protocol counts in;
 * zod's own `max` counts code points, which would let astral characters through at up to twice the length.
 */
function maxUnits(maximum: number) {
  return z.string().check((ctx) => {
    if (ctx.value.length > maximum) ctx.issues.push({ code: "too_big", origin: "string", maximum, inclusive: true, input: ctx.value });
  });
}

const noNul = { message: "must not contain null characters" };
const displayName = maxUnits(MAX_DISPLAY_NAME_LENGTH).refine((value) => !hasNul(value), noNul).nullable();
const profileImageUrl = imageUrl.refine((value) => !hasNul(value), noNul).nullable().meta({ description: CLIENT_UPLOADED_IMAGE_DESCRIPTION });

/**
 * A primary email set by a server or admin: never empty, and checked loosely as the protocol does here
 * (`invalid_email@gmai` is accepted); the strict check of SPEC.md §5 is for sign-up and sign-in.
 */
const primaryEmail = z.string().superRefine((value, ctx) => {
  if (value === "") ctx.addIssue({ code: "custom", message: "must not be empty" });
  else if (!isLooseEmail(value)) ctx.addIssue({ code: "custom", message: "must be a valid email" });
});

/** Standard base64 with padding, as the protocol checks it (an empty string is valid base64). */
export function isBase64(value: string): boolean {
  return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value);
}
const totpSecretBase64 = z.string().refine(isBase64, { message: "is not valid base64" }).nullable();

/**
 * A password set by a server or admin: at most 70 UTF-16 code units (a SCHEMA_ERROR, as the protocol's schema
 * has it) and no lower bound, as the protocol has it for server-side writes (sign-up's PASSWORD_TOO_SHORT
 * does not apply). `null` removes the password.
 */
const password = maxUnits(PASSWORD_MAX_LENGTH).nullable();

/** A password hash in modular crypt format; whether its algorithm is supported is the handler's check. */
const passwordHash = z.string().min(1);

/**
 * Restricted users (newer protocol, 2.8.108): signed up, but not yet allowed to use the app. Why a user is
 * restricted is decided in the server's services/user-restrictions.ts.
 */
export const RESTRICTED_REASON_TYPES = ["anonymous", "email_not_verified", "restricted_by_administrator"] as const;
export const restrictedReason = z.strictObject({ type: z.enum(RESTRICTED_REASON_TYPES) });
export type UserRestrictedReason = z.infer<typeof restrictedReason>;

/** An ISO 3166-1 alpha-2 code, trimmed and uppercased first (` us ` is `US`), as the protocol normalizes it. */
const countryCode = z
  .string()
  .transform((value) => value.trim().toUpperCase())
  .refine((value) => /^[A-Z]{2}$/.test(value), { message: "must be a 2-letter country code" });

/** A risk score: an integer from 0 (no risk) to 100. */
const riskScore = z.number().multipleOf(1).min(0).max(100);

/** The scores a user's sign-up was given (newer protocol); both 0 unless a server set them. */
export const userRiskScores = z.strictObject({ sign_up: z.strictObject({ bot: riskScore, free_trial_abuse: riskScore }) });
export type UserRiskScores = z.infer<typeof userRiskScores>;

/**
 * The protocol's rule for a write: a restriction's public reason and private details exist only while the
 * user is restricted by an administrator, so a body carrying either must also say `restricted_by_admin: true`.
 */
function checkRestrictedByAdmin(
  value: { restricted_by_admin?: boolean; restricted_by_admin_reason?: string | null; restricted_by_admin_private_details?: string | null },
  ctx: z.RefinementCtx,
): void {
  if (value.restricted_by_admin === true) return;
  // Whole sentences without the body's path, as the protocol's object-level test words them.
  for (const field of ["restricted_by_admin_reason", "restricted_by_admin_private_details"] as const) {
    if (value[field] != null) {
      ctx.addIssue({ code: "custom", message: `${field} must be null when restricted_by_admin is not true`, params: { withoutPath: true } });
      return;
    }
  }
}

/** The fields of a server's user update; the body itself (below) adds the restriction rule. */
const userServerUpdateFields = z.strictObject({
  display_name: displayName.optional(),
  profile_image_url: profileImageUrl.optional(),
  client_metadata: metadata.optional(),
  client_read_only_metadata: metadata.optional(),
  server_metadata: metadata.optional(),
  primary_email: primaryEmail.nullable().optional(),
  primary_email_verified: z.boolean().optional(),
  primary_email_auth_enabled: z.boolean().optional(),
  passkey_auth_enabled: z.boolean().optional(),
  password: password.optional(),
  password_hash: passwordHash.optional(),
  otp_auth_enabled: z.boolean().optional(),
  totp_secret_base64: totpSecretBase64.optional(),
  selected_team_id: uuid.nullable().optional(),
  // Only upgrades: an anonymous user can become a regular one, never the other way round.
  is_anonymous: z.literal(false).optional(),
  restricted_by_admin: newerField(z.boolean().optional()),
  /** Shown to the user. */
  restricted_by_admin_reason: newerField(z.string().nullable().optional()),
  /** Never shown to the user (server and admin reads only). */
  restricted_by_admin_private_details: newerField(z.string().nullable().optional()),
  country_code: newerField(countryCode.nullable().optional()),
  risk_scores: newerField(userRiskScores.optional()),
});

/** `PATCH /users/{id}` and `PATCH /users/me` (server, admin). Omitted fields are left unchanged. */
export const userServerUpdateBody = userServerUpdateFields.superRefine(checkRestrictedByAdmin);
export type UserServerUpdateBody = z.infer<typeof userServerUpdateBody>;

/** `PATCH /users/me` (client): what a signed-in user may change about themself. */
export const userClientUpdateBody = userServerUpdateFields.pick({
  display_name: true,
  profile_image_url: true,
  client_metadata: true,
  selected_team_id: true,
  totp_secret_base64: true,
  otp_auth_enabled: true,
  passkey_auth_enabled: true,
}).extend({
  // The newer protocol lets a user change their own primary email (its onboarding asks for one); the new
  // address is unverified until they verify it.
  primary_email: newerField(primaryEmail.nullable().optional()),
});
export type UserClientUpdateBody = z.infer<typeof userClientUpdateBody>;

/** `POST /users` (server, admin): the update fields without `selected_team_id`, plus OAuth accounts. */
export const userServerCreateBody = userServerUpdateFields.omit({ selected_team_id: true }).extend({
  oauth_providers: z
    .array(
      z.strictObject({
        id: z.string(),
        account_id: z.string(),
        email: z.string().nullable().default(null),
      }),
    )
    .optional(),
  is_anonymous: z.boolean().optional(),
}).superRefine(checkRestrictedByAdmin);
export type UserServerCreateBody = z.infer<typeof userServerCreateBody>;

/** A user id in a path: a UUID, or `me` for the signed-in user. */
export const userIdParams = z.object({
  user_id: userIdOrMe,
});

const booleanString = z.enum(["true", "false"]);

/**
 * `GET /users` (server, admin). `cursor` is the id of the first user of the page. Which users are listed
 * (newer protocol): by default those who are neither anonymous nor restricted; `include_restricted` adds
 * the restricted ones, `include_anonymous` adds anonymous and restricted ones, and `only_anonymous` (sent
 * with `include_anonymous`) lists the anonymous ones alone. The older protocol has no restricted users to
 * leave out, so its lists include them.
 */
export const userListQuery = z.object({
  cursor: uuid.optional(),
  limit: queryPageSize.optional(),
  // `last_active_at` is the newer protocol's; a zod enum cannot mark one member, so both versions accept it.
  order_by: z.enum(["signed_up_at", "last_active_at"]).optional(),
  desc: booleanString.optional(),
  query: z.string().refine((value) => !hasNul(value), noNul).optional(),
  include_anonymous: booleanString.optional(),
  include_restricted: newerField(booleanString.optional(), { otherwise: "true" }),
  only_anonymous: newerField(booleanString.optional()),
  team_id: uuid.optional(),
});
export type UserListQuery = z.infer<typeof userListQuery>;

/** A page of `GET /users`: `next_cursor` is null on the last page. */
export interface UserListResponse<T> {
  items: T[];
  is_paginated: true;
  pagination: { next_cursor: string | null };
}

/** A linked OAuth account in a user's read shape. */
export const userOAuthProviderRead = z.strictObject({ id: z.string(), account_id: z.string(), email: z.string().nullable() });

/** The signed-in user as a client reads themself (`GET /users/me`). */
export const userClientRead = z.strictObject({
  id: z.string(),
  primary_email: z.string().nullable(),
  primary_email_verified: z.boolean(),
  display_name: z.string().nullable(),
  client_metadata: z.unknown(),
  client_read_only_metadata: z.unknown(),
  profile_image_url: z.string().nullable(),
  signed_up_at_millis: z.number(),
  has_password: z.boolean(),
  auth_with_email: z.boolean(),
  oauth_providers: z.array(userOAuthProviderRead),
  selected_team_id: z.string().nullable(),
  requires_totp_mfa: z.boolean(),
  otp_auth_enabled: z.boolean(),
  passkey_auth_enabled: z.boolean(),
  is_anonymous: z.boolean(),
  /** Always `restricted_reason !== null`. */
  is_restricted: newerField(z.boolean()),
  restricted_reason: newerField(restrictedReason.nullable()),
  restricted_by_admin: newerField(z.boolean()),
  restricted_by_admin_reason: newerField(z.string().nullable()),
  selected_team: teamClientRead.nullable(),
});
export type UserClientRead = z.infer<typeof userClientRead>;

/** A user as a server or admin reads it. */
export const userServerRead = userClientRead.extend({
  primary_email_auth_enabled: z.boolean(),
  server_metadata: z.unknown(),
  last_active_at_millis: z.number(),
  restricted_by_admin_private_details: newerField(z.string().nullable()),
  /** Set by a server (the protocol's own servers capture it from geo headers at sign-up). */
  country_code: newerField(z.string().nullable()),
  risk_scores: newerField(userRiskScores),
  selected_team: teamServerRead.nullable(),
});
export type UserServerRead = z.infer<typeof userServerRead>;

/** A page of `GET /users`. */
export const userListResponse = z.strictObject({
  items: z.array(userServerRead),
  is_paginated: z.literal(true),
  pagination: z.strictObject({ next_cursor: z.string().nullable() }),
});

/** `{ success: true }`, the answer of most deletions and actions. */
export const successResponse = z.strictObject({ success: z.literal(true) });

/**
 * `POST /internal/onboarding/preview-affected-users` (2.8.108, admin): who an onboarding change would restrict —
 * the users allowed in now that the changed setting would hold back — the first `limit` of them (10 by default)
 * in sign-up order, with the number of all.
 */
export const onboardingPreviewQuery = z.object({ limit: queryPageSize.optional() });
export const onboardingPreviewBody = z.strictObject({
  onboarding: z.strictObject({ require_email_verification: z.boolean().optional() }),
});
export const onboardingPreviewResponse = z.strictObject({
  affected_users: z.array(
    z.strictObject({ id: z.string(), display_name: z.string().nullable(), primary_email: z.string().nullable(), restricted_reason: restrictedReason }),
  ),
  total_affected_count: z.number(),
});
