import { z } from "zod";

/**
 * Wire shapes of the API keys a project's users and teams hold (`/user-api-keys`, `/team-api-keys`,
 * SPEC.md §7): the full key is returned once, at creation; reads show its last four characters.
 */

export type ProjectApiKeyType = "user" | "team";

/** `POST /{user|team}-api-keys`; the owner field is `user_id` or `team_id` by the route. */
export const projectApiKeyCreateBody = (owner: "user_id" | "team_id") =>
  z.strictObject({
    description: z.string(),
    expires_at_millis: z.number().nullable(),
    is_public: z.boolean().optional(),
    [owner]: z.string(),
  } as { description: z.ZodString; expires_at_millis: z.ZodNullable<z.ZodNumber>; is_public: z.ZodOptional<z.ZodBoolean> } & Record<typeof owner, z.ZodString>);

/** `PATCH /{user|team}-api-keys/{id}` */
export const projectApiKeyUpdateBody = z.strictObject({
  description: z.string().optional(),
  revoked: z.literal(true).optional(),
});

/** `POST /{user|team}-api-keys/check` */
export const projectApiKeyCheckBody = z.strictObject({ api_key: z.string() });

/** The owner query of list, read and update: `?user_id=` (or `me`) / `?team_id=`. */
export const projectApiKeyOwnerQuery = (owner: "user_id" | "team_id") => z.object({ [owner]: z.string().optional() } as Record<typeof owner, z.ZodOptional<z.ZodString>>);

export interface ProjectApiKeyRead {
  id: string;
  description: string;
  expires_at_millis?: number;
  manually_revoked_at_millis?: number;
  created_at_millis: number;
  is_public: boolean;
  value: { last_four: string };
  type: ProjectApiKeyType;
  user_id?: string;
  team_id?: string;
}

/** The create answer: the read shape with the whole key as `value`, shown this once. */
export type ProjectApiKeyCreated = Omit<ProjectApiKeyRead, "value"> & { value: string };
