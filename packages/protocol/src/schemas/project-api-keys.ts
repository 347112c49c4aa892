import { z } from "zod";
import { userIdOrMe } from "./ids.js";
import { unpaginatedList } from "./list-response.js";

/**
 * Wire shapes of the API keys a project's users and teams hold (`/user-api-keys`, `/team-api-keys`,
 * SPEC.md §7): the full key is returned once, at creation; reads show its last four characters.
 */

export type ProjectApiKeyType = "user" | "team";
type OwnerField = "user_id" | "team_id";

/** `POST /{user|team}-api-keys`; the owner field is `user_id` (a uuid or `me`) or `team_id` (any string, as in the protocol) by the route. */
export const projectApiKeyCreateBody = (owner: OwnerField) =>
  z.strictObject({
    description: z.string(),
    expires_at_millis: z.number().nullable(),
    is_public: z.boolean().optional(),
    [owner]: owner === "user_id" ? userIdOrMe : z.string(),
  } as { description: z.ZodString; expires_at_millis: z.ZodNullable<z.ZodNumber>; is_public: z.ZodOptional<z.ZodBoolean> } & Record<typeof owner, z.ZodString>);

/** `PATCH /{user|team}-api-keys/{id}` */
export const projectApiKeyUpdateBody = z.strictObject({
  description: z.string().optional(),
  revoked: z.literal(true).optional(),
});

/** `POST /{user|team}-api-keys/check` */
export const projectApiKeyCheckBody = z.strictObject({ api_key: z.string() });

/** `/{user|team}-api-keys/{key_id}` */
export const projectApiKeyIdParams = z.object({ key_id: z.string() });

/**
 * The owner query of `/user-api-keys` (`?user_id=`, or `me`). Optional in the schema: reading or changing
 * one key needs no owner (the key names it), while a list without one is refused by the route with the
 * protocol's own SCHEMA_ERROR wording.
 */
export const userApiKeyOwnerQuery = z.object({ user_id: z.string().optional() });

/** The owner query of `/team-api-keys` (`?team_id=`). */
export const teamApiKeyOwnerQuery = z.object({ team_id: z.string() });

const keyFields = {
  id: z.string(),
  description: z.string(),
  expires_at_millis: z.number().optional(),
  manually_revoked_at_millis: z.number().optional(),
  created_at_millis: z.number(),
  is_public: z.boolean(),
  value: z.strictObject({ last_four: z.string() }),
};

export const userApiKeyRead = z.strictObject({ ...keyFields, type: z.literal("user"), user_id: z.string() });
export const teamApiKeyRead = z.strictObject({ ...keyFields, type: z.literal("team"), team_id: z.string() });
export type ProjectApiKeyRead = z.infer<typeof userApiKeyRead> | z.infer<typeof teamApiKeyRead>;

/** The create answer: the read shape with the whole key as `value`, shown this once. */
export const userApiKeyCreated = userApiKeyRead.extend({ value: z.string() });
export const teamApiKeyCreated = teamApiKeyRead.extend({ value: z.string() });
export type ProjectApiKeyCreated = z.infer<typeof userApiKeyCreated> | z.infer<typeof teamApiKeyCreated>;

/** The read and create shapes of one kind of key, and its list (newest first). */
export function projectApiKeySchemas(type: ProjectApiKeyType) {
  const read = type === "user" ? userApiKeyRead : teamApiKeyRead;
  return { read, created: type === "user" ? userApiKeyCreated : teamApiKeyCreated, list: unpaginatedList(read) };
}
