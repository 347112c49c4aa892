import { z } from "zod";
import {
  MAX_DISPLAY_NAME_LENGTH,
  adminProjectConfigRead,
  adminProjectConfigUpdate,
  clientProjectConfigRead,
  imageUrl,
} from "./project-config.js";

/**
 * Wire shapes of the current project: `GET /projects/current` (client view) and
 * `GET/PATCH /internal/projects/current` (admin view, with the legacy `config` sub-object);
 * also the create body of `POST /internal/projects`. SPEC.md §3 "Project".
 */

/** `internal`, or a UUID. */
export const projectId = z.string().refine(
  (value) => value === "internal" || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value),
  { message: "must be a valid project id" },
);

const displayName = z.string().max(MAX_DISPLAY_NAME_LENGTH);

/** `GET /projects/current`: what any client may know, e.g. to show the available sign-in methods. */
export const clientProjectRead = z.object({
  id: projectId,
  display_name: z.string(),
  config: clientProjectConfigRead,
});
export type ClientProjectRead = z.infer<typeof clientProjectRead>;

/** `GET /internal/projects/current` (admin) and the items of `GET /internal/projects`. */
export const adminProjectRead = z.object({
  id: projectId,
  display_name: z.string(),
  // Never null on read: a project without a description reads as "".
  description: z.string(),
  logo_url: z.string().nullable().optional(),
  full_logo_url: z.string().nullable().optional(),
  created_at_millis: z.number(),
  is_production_mode: z.boolean(),
  owner_team_id: z.string().nullable(),
  config: adminProjectConfigRead,
});
export type AdminProjectRead = z.infer<typeof adminProjectRead>;

/** `PATCH /internal/projects/current` (admin). Omitted fields are left unchanged. */
export const adminProjectUpdateBody = z.strictObject({
  display_name: displayName.optional(),
  description: z.string().nullable().optional(),
  logo_url: imageUrl.nullable().optional(),
  full_logo_url: imageUrl.nullable().optional(),
  is_production_mode: z.boolean().optional(),
  config: adminProjectConfigUpdate.optional(),
});
export type AdminProjectUpdateBody = z.infer<typeof adminProjectUpdateBody>;

/** `POST /internal/projects` (internal project, signed-in user): the update fields plus name and owner. */
export const adminProjectCreateBody = adminProjectUpdateBody.extend({
  display_name: displayName,
  owner_team_id: z.uuid(),
});
export type AdminProjectCreateBody = z.infer<typeof adminProjectCreateBody>;
