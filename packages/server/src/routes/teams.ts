import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import {
  successResponse,
  teamClientCreateBody,
  teamClientUpdateBody,
  teamCreateQuery,
  teamIdParams,
  teamListQuery,
  teamListResponse,
  teamRead,
  teamServerCreateBody,
  teamServerUpdateBody,
} from "@latchkey/protocol/schemas";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import type { RequestAuth } from "../http/context.js";
import { ANY_ACCESS, defineRoute } from "../http/route.js";
import { createTeam, deleteTeam, listTeamsPage, readTeam, renderClientTeam, renderServerTeam, updateTeam, type TeamRow } from "../services/teams.js";
import { checkProfileImageUrl } from "../services/profile-images.js";
import { resolveUserId, teamActor } from "./team-route-helpers.js";

const TAGS = ["Teams"];
const MEMBER_ERRORS = [KnownErrors.TeamMembershipNotFound, KnownErrors.UserAuthenticationRequired, KnownErrors.UserNotFound];

/**
 * Teams (SPEC.md §7 "Teams"): `GET/POST /teams` and `GET/PATCH/DELETE /teams/{team_id}`, each caller
 * seeing its own shape. A client lists only its own teams (`user_id=me`), reads only teams it is in, and
 * creates teams only when the project allows it. Creating a team never changes anyone's selected team.
 */
export const teamsRoutes = [
  defineRoute({
    method: "post",
    path: "/teams",
    summary: "Create a team",
    description:
      "A client creates a team only when the project allows it, and always joins it with the creator's default permissions; " +
      "a server names the creator (`creator_user_id`) or none. The creator's selected team is left as it was.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { query: teamCreateQuery, body: teamServerCreateBody },
    clientRequest: { query: teamCreateQuery, body: teamClientCreateBody },
    response: { status: 201, description: "The new team, in the caller's shape.", schema: teamRead },
    errors: [KnownErrors.UserNotFound, KnownErrors.UserAuthenticationRequired, KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, query, body }) => {
      const creatorUserId = creatorOf(auth, body.creator_user_id, query.add_current_user);
      const team = await createTeam(c.get("deps").db, auth.project, {
        displayName: body.display_name,
        // A client may send only an image (issue 13 §2): anything else is refused before the write.
        profileImage: checkProfileImageUrl(body.profile_image_url, { publicUrl: c.get("deps").env.publicUrl, uploadsOnly: auth.type === "client" }),
        clientMetadata: body.client_metadata,
        clientReadOnlyMetadata: "client_read_only_metadata" in body ? body.client_read_only_metadata : undefined,
        serverMetadata: "server_metadata" in body ? body.server_metadata : undefined,
        creatorUserId,
      });
      return renderFor(auth, team);
    },
  }),
  defineRoute({
    method: "get",
    path: "/teams",
    summary: "List teams",
    description:
      "A client lists the teams of its own user (`user_id=me`); a server lists every team, or a user's. With `limit` (2.8.108), a page from `cursor` (the id of the page's first team), `pagination.next_cursor` naming the next one's; `desc=true` lists the newest first, and `query` keeps the teams whose name holds it (any case) or whose id it is.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { query: teamListQuery },
    response: { description: "The teams, oldest first.", schema: teamListResponse },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, query }) => {
      const userId = query.user_id === undefined ? undefined : resolveUserId(auth, query.user_id);
      if (auth.type === "client" && (userId === undefined || userId !== auth.user?.id)) {
        throw new HTTPException(403, { message: 'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user' });
      }
      const page = await listTeamsPage(c.get("deps").db, auth.project.id, { memberUserId: userId, cursor: query.cursor, limit: query.limit, desc: query.desc === "true", query: query.query });
      const items = page.teams.map((team) => renderFor(auth, team));
      if (query.limit === undefined) return { items, is_paginated: false } as const;
      return { items, is_paginated: true, pagination: { next_cursor: page.nextCursor } } as const;
    },
  }),
  defineRoute({
    method: "get",
    path: "/teams/:team_id",
    summary: "Read a team",
    description: "A client reads only a team its user is a member of.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: teamIdParams },
    response: { description: "The team, in the caller's shape.", schema: teamRead },
    errors: [KnownErrors.TeamNotFound, ...MEMBER_ERRORS],
    handler: async (c, { auth, params }) => renderFor(auth, await readTeam(c.get("deps").db, auth.project.id, teamActor(auth), params.team_id.toLowerCase())),
  }),
  defineRoute({
    method: "patch",
    path: "/teams/:team_id",
    summary: "Update a team",
    description: "A client's user needs `$update_team` in the team. Omitted fields stay as they are.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: teamIdParams, body: teamServerUpdateBody },
    clientRequest: { params: teamIdParams, body: teamClientUpdateBody },
    response: { description: "The updated team, in the caller's shape.", schema: teamRead },
    errors: [KnownErrors.TeamNotFound, KnownErrors.TeamPermissionRequired, ...MEMBER_ERRORS],
    handler: async (c, { auth, params, body }) => {
      const team = await updateTeam(c.get("deps").db, auth.project.id, teamActor(auth), params.team_id.toLowerCase(), {
        displayName: body.display_name,
        // A client may send only an image (issue 13 §2): anything else is refused before the write.
        profileImage: checkProfileImageUrl(body.profile_image_url, { publicUrl: c.get("deps").env.publicUrl, uploadsOnly: auth.type === "client" }),
        clientMetadata: body.client_metadata,
        clientReadOnlyMetadata: "client_read_only_metadata" in body ? body.client_read_only_metadata : undefined,
        serverMetadata: "server_metadata" in body ? body.server_metadata : undefined,
      });
      return renderFor(auth, team);
    },
  }),
  defineRoute({
    method: "delete",
    path: "/teams/:team_id",
    summary: "Delete a team",
    description: "A client's user needs `$delete_team` in the team. Its memberships and pending invitations go with it.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: teamIdParams },
    response: { description: "Deleted.", schema: successResponse },
    errors: [KnownErrors.TeamNotFound, KnownErrors.TeamPermissionRequired, ...MEMBER_ERRORS],
    handler: async (c, { auth, params }) => {
      await deleteTeam(c.get("deps").db, auth.project.id, teamActor(auth), params.team_id.toLowerCase());
      return { success: true } as const;
    },
  }),
];

function renderFor(auth: RequestAuth, team: TeamRow) {
  return auth.type === "client" ? renderClientTeam(team) : renderServerTeam(team);
}

/**
 * Who joins a new team as its creator, by the protocol's rules: a client always joins its own team (and
 * may name only itself); a server names anyone, or nobody for a team without members. The deprecated
 * `add_current_user=true` names the signed-in user.
 */
function creatorOf(auth: RequestAuth, creatorUserId: string | undefined, addCurrentUser: string | undefined): string | null {
  if (creatorUserId !== undefined && addCurrentUser !== undefined) {
    throw new HTTPException(400, { message: "Cannot use both creator_user_id and add_current_user. add_current_user is deprecated, please only use creator_user_id in the body." });
  }
  let creator = creatorUserId === undefined ? null : resolveUserId(auth, creatorUserId);
  if (auth.type === "client") {
    if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
    if (!renderProjectConfig(auth.project.config_override as ConfigObject).teams.allowClientTeamCreation) {
      throw new HTTPException(403, { message: "Client team creation is disabled for this project" });
    }
    if (creator !== null && creator !== auth.user.id) {
      throw new HTTPException(403, { message: "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'." });
    }
    creator = auth.user.id;
  }
  if (addCurrentUser === "true") {
    if (!auth.user) throw new HTTPException(401, { message: "You must be logged in to create a team with the current user as a member." });
    creator = auth.user.id;
  }
  return creator;
}
