import { z } from "zod";

/**
 * The protocol's uuid check (yup's `uuid()`, which every id field of the reference goes through): versions 1 to 5
 * in the RFC 4122 variant, or the nil UUID. A v6–v8 id or `ffffffff-…` is a schema error there, not a lookup that
 * finds nothing, and so it is here. One declaration for every schema in this package.
 */
export const UUID_PATTERN = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000)$/i;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

export const uuid = z.string().regex(UUID_PATTERN, { message: "must be a valid UUID" });

/**
 * A user id, or `me` for the signed-in user. The reference maps `me` to a uuid before its uuid check, so anything
 * else gets that check's words: "must be a valid UUID".
 */
export const userIdOrMe = z.string().refine((value) => value === "me" || isUuid(value), { message: "must be a valid UUID" });
