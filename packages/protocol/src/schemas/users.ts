import { z } from "zod";
import { PASSWORD_MAX_LENGTH } from "./auth.js";
import { MAX_DISPLAY_NAME_LENGTH, imageUrl, isValidEmail } from "./project-config.js";

/**
 * Wire shapes of users: `POST /users`, `GET/PATCH/DELETE /users/{id}` (server and admin), `GET /users`,
 * and `GET/PATCH/DELETE /users/me` (the client shape names fewer writable fields).
 * SPEC.md §3 "Current user", §5 for the limits, §7 "Users and contact channels".
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuid = z.string().regex(UUID, { message: "must be a valid UUID" });

/**
 * Metadata may be nested this deep at most. The protocol sets no bound, but a value must survive
 * `JSON.stringify` and PostgreSQL's jsonb parser, both of which recurse.
 */
export const MAX_METADATA_DEPTH = 1000;

// PostgreSQL text and jsonb cannot hold U+0000, and jsonb refuses unpaired surrogate escapes.
const hasNul = (value: string) => value.includes("\u0000");
// In a `u` regular expression a surrogate pair reads as one code point, so this matches only unpaired halves.
const UNPAIRED_SURROGATE = /[\ud800-\udfff]/u;

/** Why a JSON value cannot be stored as metadata, or undefined when it can. Iterative: depth is client input. */
export function metadataProblem(value: unknown): string | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  const badString = (s: string) => hasNul(s) || UNPAIRED_SURROGATE.test(s);
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current === "string") {
      if (badString(current)) return "must not contain null characters or unpaired surrogates";
    } else if (typeof current === "object" && current !== null) {
      if (depth >= MAX_METADATA_DEPTH) return `must not be nested more than ${MAX_METADATA_DEPTH} levels deep`;
      for (const [key, child] of Object.entries(current)) {
        if (badString(key)) return "must not contain null characters or unpaired surrogates";
        stack.push({ value: child, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/** Any JSON value (null included), stored as jsonb. */
const metadata = z.unknown().superRefine((value, ctx) => {
  const problem = metadataProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

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
const profileImageUrl = imageUrl.refine((value) => !hasNul(value), noNul).nullable();

/** A primary email: never empty, and valid by SPEC.md §5 (≤ 256, no leading dot, top-level part of 2+ chars). */
const primaryEmail = z.string().superRefine((value, ctx) => {
  if (value === "") ctx.addIssue({ code: "custom", message: "must not be empty" });
  else if (!isValidEmail(value)) ctx.addIssue({ code: "custom", message: "must be a valid email" });
});

/** Standard base64 with padding, as the protocol checks it (an empty string is valid base64). */
export function isBase64(value: string): boolean {
  return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value);
}
const totpSecretBase64 = z.string().refine(isBase64, { message: "is not valid base64" }).nullable();

/**
 * A new password. Only the upper bound is part of the schema (a SCHEMA_ERROR, as the protocol's schema has
 * it); the lower bound is PASSWORD_TOO_SHORT from the handler. Lengths count UTF-16 code units.
 * `null` removes the password.
 */
const password = maxUnits(PASSWORD_MAX_LENGTH).nullable();

/** A password hash in modular crypt format; whether its algorithm is supported is the handler's check. */
const passwordHash = z.string().min(1);

/** `PATCH /users/{id}` and `PATCH /users/me` (server, admin). Omitted fields are left unchanged. */
export const userServerUpdateBody = z.strictObject({
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
});
export type UserServerUpdateBody = z.infer<typeof userServerUpdateBody>;

/** `PATCH /users/me` (client): what a signed-in user may change about themself. */
export const userClientUpdateBody = userServerUpdateBody.pick({
  display_name: true,
  profile_image_url: true,
  client_metadata: true,
  selected_team_id: true,
  totp_secret_base64: true,
  otp_auth_enabled: true,
  passkey_auth_enabled: true,
});
export type UserClientUpdateBody = z.infer<typeof userClientUpdateBody>;

/** `POST /users` (server, admin): the update fields without `selected_team_id`, plus OAuth accounts. */
export const userServerCreateBody = userServerUpdateBody.omit({ selected_team_id: true }).extend({
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
});
export type UserServerCreateBody = z.infer<typeof userServerCreateBody>;

/** A user id in a path: a UUID, or `me` for the signed-in user. */
export const userIdParams = z.object({
  user_id: z.string().refine((value) => value === "me" || UUID.test(value), { message: "must be a valid UUID" }),
});

const booleanString = z.enum(["true", "false"]);

/** A query-string page size: an integer of at least 1, with the protocol's wording for each problem. */
const pageSize = z.string().transform((value, ctx) => {
  const trimmed = value.replace(/\s/g, "");
  const number = trimmed === "" ? Number.NaN : Number(trimmed);
  const problem = Number.isNaN(number)
    ? `must be a \`number\` type, but the final value was: \`NaN\` (cast from the value \`${JSON.stringify(value)}\`).`
    : !Number.isInteger(number)
      ? "must be an integer"
      : number < 1
        ? "must be greater than or equal to 1"
        : !Number.isSafeInteger(number)
          ? `must be less than or equal to ${Number.MAX_SAFE_INTEGER}`
          : undefined;
  if (problem === undefined) return number;
  ctx.addIssue({ code: "custom", message: problem });
  return z.NEVER;
});

/** `GET /users` (server, admin). `cursor` is the id of the first user of the page. */
export const userListQuery = z.object({
  cursor: uuid.optional(),
  limit: pageSize.optional(),
  order_by: z.enum(["signed_up_at"]).optional(),
  desc: booleanString.optional(),
  query: z.string().refine((value) => !hasNul(value), noNul).optional(),
  include_anonymous: booleanString.optional(),
  team_id: uuid.optional(),
});
export type UserListQuery = z.infer<typeof userListQuery>;

/** A page of `GET /users`: `next_cursor` is null on the last page. */
export interface UserListResponse<T> {
  items: T[];
  is_paginated: true;
  pagination: { next_cursor: string | null };
}
