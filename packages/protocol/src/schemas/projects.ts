import { z } from "zod";
import { uuid } from "./ids.js";
import { unpaginatedList } from "./list-response.js";
import {
  MAX_DISPLAY_NAME_LENGTH,
  adminProjectConfigRead,
  adminProjectConfigUpdate,
  clientProjectConfigRead,
  imageUrl,
} from "./project-config.js";
import { newerField, olderField } from "./dialect-fields.js";

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
export const clientProjectRead = z.strictObject({
  id: projectId,
  display_name: z.string(),
  config: clientProjectConfigRead,
});
export type ClientProjectRead = z.infer<typeof clientProjectRead>;

/** Where a project stands in the hosted dashboard's set-up wizard (2.8.108). */
export const PROJECT_ONBOARDING_STATUSES = [
  "config_choice",
  "apps_selection",
  "auth_setup",
  "domain_setup",
  "email_theme_setup",
  "payments_setup",
  "welcome",
  "completed",
] as const;
export type ProjectOnboardingStatus = (typeof PROJECT_ONBOARDING_STATUSES)[number];
const onboardingStatus = z.enum(PROJECT_ONBOARDING_STATUSES);

/** `GET /internal/projects/current` (admin) and the items of `GET /internal/projects`. */
export const adminProjectRead = z.strictObject({
  id: projectId,
  display_name: z.string(),
  // Never null on read: a project without a description reads as "".
  description: z.string(),
  logo_url: z.string().nullable().optional(),
  // One stored value under two names: 2.8.108 renamed `full_logo_url` to `logo_full_url`.
  full_logo_url: olderField(z.string().nullable().optional()),
  logo_full_url: newerField(z.string().nullable().optional()),
  logo_dark_mode_url: newerField(z.string().nullable().optional()),
  logo_full_dark_mode_url: newerField(z.string().nullable().optional()),
  created_at_millis: z.number(),
  is_production_mode: z.boolean(),
  /** Set when the project is created; Latchkey gives it no behaviour of its own. */
  is_development_environment: newerField(z.boolean()),
  owner_team_id: z.string().nullable(),
  onboarding_status: newerField(onboardingStatus),
  config: adminProjectConfigRead,
});
export type AdminProjectRead = z.infer<typeof adminProjectRead>;

/** `PATCH /internal/projects/current` (admin). Omitted fields are left unchanged. */
export const adminProjectUpdateBody = z.strictObject({
  display_name: displayName.optional(),
  description: z.string().nullable().optional(),
  logo_url: imageUrl.nullable().optional(),
  full_logo_url: olderField(imageUrl.nullable().optional()),
  logo_full_url: newerField(imageUrl.nullable().optional()),
  logo_dark_mode_url: newerField(imageUrl.nullable().optional()),
  logo_full_dark_mode_url: newerField(imageUrl.nullable().optional()),
  is_production_mode: z.boolean().optional(),
  onboarding_status: newerField(onboardingStatus.optional()),
  config: adminProjectConfigUpdate.optional(),
});
export type AdminProjectUpdateBody = z.infer<typeof adminProjectUpdateBody>;

/** `POST /internal/projects` (internal project, signed-in user): the update fields plus name and owner. */
export const adminProjectCreateBody = adminProjectUpdateBody.extend({
  display_name: displayName,
  is_development_environment: newerField(z.boolean().optional()),
  owner_team_id: uuid,
});
export type AdminProjectCreateBody = z.infer<typeof adminProjectCreateBody>;

/** `GET /internal/projects`: the signed-in internal-project user's projects, oldest first. */
export const adminProjectListResponse = unpaginatedList(adminProjectRead);

/** `POST /internal/projects/transfer` */
export const projectTransferBody = z.strictObject({ project_id: z.string(), new_team_id: z.string() });

/** The protocol answers a transfer with the string `"true"`, not a boolean. */
export const projectTransferResponse = z.strictObject({ success: z.literal("true") });

/** `/projects/{project_id}/.well-known/jwks.json` */
export const jwksParams = z.strictObject({ project_id: z.string() });

/** One public key of the JWKS (RFC 7517): an ES256 (P-256) verification key, without `use` as the reference has it. */
export const publicJwk = z.strictObject({
  kty: z.literal("EC"),
  alg: z.literal("ES256"),
  crv: z.literal("P-256"),
  x: z.string(),
  y: z.string(),
  kid: z.string(),
});

/** The keys that verify a project's access tokens: the current and the next one of each audience. */
export const jwksResponse = z.strictObject({ keys: z.array(publicJwk) });
export type JwksResponse = z.infer<typeof jwksResponse>;
