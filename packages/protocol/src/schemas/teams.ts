import { z } from "zod";
import { userIdOrMe, uuid } from "./ids.js";
import { MAX_DISPLAY_NAME_LENGTH, imageUrl } from "./project-config.js";
import { metadata } from "./metadata.js";
import { ANY_IMAGE_URL_DESCRIPTION, CLIENT_UPLOADED_IMAGE_DESCRIPTION } from "./profile-images.js";
import { newerField } from "./dialect-fields.js";
import { paginatedList, queryPageSize, unpaginatedList } from "./list-response.js";

/**
 * Wire shapes of teams (`/teams`), memberships (`/team-memberships/{team_id}/{user_id}`) and member
 * profiles (`/team-member-profiles`), SPEC.md §7 "Teams". A client writes fewer team fields than a
 * server; a member writes only the display name and image of their own profile.
 */

/** Team and member display names share the user display name's limit (SPEC.md §5). */
const displayName = z.string().max(MAX_DISPLAY_NAME_LENGTH);

/** `PATCH /teams/{team_id}` (client): what a member holding `$update_team` may change. */
export const teamClientUpdateBody = z.strictObject({
  display_name: displayName.optional(),
  profile_image_url: imageUrl.nullable().meta({ description: CLIENT_UPLOADED_IMAGE_DESCRIPTION }).optional(),
  client_metadata: metadata.optional(),
});
export type TeamClientUpdateBody = z.infer<typeof teamClientUpdateBody>;

/** `PATCH /teams/{team_id}` (server, admin). */
export const teamServerUpdateBody = teamClientUpdateBody.extend({
  client_read_only_metadata: metadata.optional(),
  server_metadata: metadata.optional(),
});
export type TeamServerUpdateBody = z.infer<typeof teamServerUpdateBody>;

/** `POST /teams` (client): `creator_user_id` must be the signed-in user (`me`), who joins the team. */
export const teamClientCreateBody = teamClientUpdateBody.extend({
  display_name: displayName,
  creator_user_id: userIdOrMe.optional(),
});
export type TeamClientCreateBody = z.infer<typeof teamClientCreateBody>;

/** `POST /teams` (server, admin): without `creator_user_id` the team starts with no members. */
export const teamServerCreateBody = teamServerUpdateBody.extend({
  display_name: displayName,
  creator_user_id: userIdOrMe.optional(),
});
export type TeamServerCreateBody = z.infer<typeof teamServerCreateBody>;

/** `POST /teams` query: `add_current_user` is the protocol's deprecated spelling of `creator_user_id: "me"`. */
export const teamCreateQuery = z.object({ add_current_user: z.enum(["true", "false"]).optional() });

/** `GET /teams`: a client must name itself (`user_id=me`); a server may filter by any member. */
/**
 * `GET /teams`. 2.8.108 adds paging and search: `limit` teams from `cursor` (the id of the page's first team), in
 * creation order (`order_by=created_at`, the only order) or newest first (`desc=true`), of those whose name holds
 * `query` (any case) or whose id it is.
 */
export const teamListQuery = z.object({
  user_id: userIdOrMe.optional(),
  order_by: newerField(z.enum(["created_at"]).optional()),
  desc: newerField(z.enum(["true", "false"]).optional()),
  cursor: newerField(uuid.optional()),
  limit: newerField(queryPageSize.optional()),
  query: newerField(z.string().optional()),
});

export const teamIdParams = z.object({ team_id: uuid });

/** `/team-memberships/{team_id}/{user_id}` and `/team-member-profiles/{team_id}/{user_id}`. */
export const teamMemberParams = z.object({ team_id: uuid, user_id: userIdOrMe });

/** `POST /team-memberships/{team_id}/{user_id}` takes an empty object. */
export const teamMembershipCreateBody = z.strictObject({});

/** `GET /team-member-profiles` (a client must give `team_id`). */
export const teamMemberProfileListQuery = z.object({ team_id: uuid.optional(), user_id: userIdOrMe.optional() });

/** `PATCH /team-member-profiles/{team_id}/{user_id}`: the member's name and image in this team. */
export const teamMemberProfileUpdateBody = z.strictObject({
  display_name: displayName.optional(),
  profile_image_url: imageUrl.nullable().meta({ description: ANY_IMAGE_URL_DESCRIPTION }).optional(),
});
export type TeamMemberProfileUpdateBody = z.infer<typeof teamMemberProfileUpdateBody>;

/** A team as a client reads it. */
export const teamClientRead = z.strictObject({
  id: z.string(),
  display_name: z.string(),
  profile_image_url: z.string().nullable(),
  client_metadata: z.unknown(),
  client_read_only_metadata: z.unknown(),
});
export type TeamClientRead = z.infer<typeof teamClientRead>;

/** A team as a server reads it. */
export const teamServerRead = teamClientRead.extend({
  created_at_millis: z.number(),
  server_metadata: z.unknown(),
});
export type TeamServerRead = z.infer<typeof teamServerRead>;

/** A team as either caller reads it (each gets its own shape). */
export const teamRead = z.union([teamClientRead, teamServerRead]);

/** `GET /teams` */
export const teamListResponse = z.union([unpaginatedList(teamRead), paginatedList(teamRead)]);

/** `POST /team-memberships/{team_id}/{user_id}` */
export const teamMembershipRead = z.strictObject({
  team_id: z.string(),
  user_id: z.string(),
});
export type TeamMembershipRead = z.infer<typeof teamMembershipRead>;

/** A member's profile in one team as a client reads it (servers also get the user: team-member-profiles.ts). */
export const teamMemberProfileClientRead = z.strictObject({
  team_id: z.string(),
  user_id: z.string(),
  display_name: z.string().nullable(),
  profile_image_url: z.string().nullable(),
});
export type TeamMemberProfileClientRead = z.infer<typeof teamMemberProfileClientRead>;
