import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import { teamClientCreateBody, teamClientUpdateBody, teamCreateQuery, teamIdParams, teamListQuery, teamServerCreateBody, teamServerUpdateBody } from "@latchkey/protocol/schemas";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import { requireAccess } from "../http/auth.js";
import type { AppEnv, RequestAuth } from "../http/context.js";
import { validate } from "../http/validate.js";
import { createTeam, deleteTeam, listTeams, readTeam, renderClientTeam, renderServerTeam, updateTeam, type TeamRow } from "../services/teams.js";
import { resolveUserId, teamActor } from "./team-route-helpers.js";

const ANY_ACCESS = ["client", "server", "admin"] as const;

/**
 * Teams (SPEC.md §7 "Teams"): `GET/POST /teams` and `GET/PATCH/DELETE /teams/{team_id}`, each caller
 * seeing its own shape. A client lists only its own teams (`user_id=me`), reads only teams it is in, and
 * creates teams only when the project allows it.
 */
export function teamsRoutes() {
  return new Hono<AppEnv>()
    .post("/teams", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { query, body } = auth.type === "client" ? validate(c, { query: teamCreateQuery, body: teamClientCreateBody }) : validate(c, { query: teamCreateQuery, body: teamServerCreateBody });
      const creatorUserId = creatorOf(auth, body.creator_user_id, query.add_current_user);
      const team = await createTeam(c.get("deps").db, auth.project, {
        displayName: body.display_name,
        profileImageUrl: body.profile_image_url,
        clientMetadata: body.client_metadata,
        clientReadOnlyMetadata: "client_read_only_metadata" in body ? body.client_read_only_metadata : undefined,
        serverMetadata: "server_metadata" in body ? body.server_metadata : undefined,
        creatorUserId,
      });
      return c.json(renderFor(auth, team), 201);
    })
    .get("/teams", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { query } = validate(c, { query: teamListQuery });
      const userId = query.user_id === undefined ? undefined : resolveUserId(auth, query.user_id);
      if (auth.type === "client" && (userId === undefined || userId !== auth.user?.id)) {
        throw new HTTPException(403, { message: 'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user' });
      }
      const teams = await listTeams(c.get("deps").db, auth.project.id, userId);
      return c.json({ items: teams.map((team) => renderFor(auth, team)), is_paginated: false }, 200);
    })
    .get("/teams/:team_id", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { params } = validate(c, { params: teamIdParams });
      const team = await readTeam(c.get("deps").db, auth.project.id, teamActor(auth), params.team_id.toLowerCase());
      return c.json(renderFor(auth, team), 200);
    })
    .patch("/teams/:team_id", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { params, body } = auth.type === "client" ? validate(c, { params: teamIdParams, body: teamClientUpdateBody }) : validate(c, { params: teamIdParams, body: teamServerUpdateBody });
      const team = await updateTeam(c.get("deps").db, auth.project.id, teamActor(auth), params.team_id.toLowerCase(), {
        displayName: body.display_name,
        profileImageUrl: body.profile_image_url,
        clientMetadata: body.client_metadata,
        clientReadOnlyMetadata: "client_read_only_metadata" in body ? body.client_read_only_metadata : undefined,
        serverMetadata: "server_metadata" in body ? body.server_metadata : undefined,
      });
      return c.json(renderFor(auth, team), 200);
    })
    .delete("/teams/:team_id", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { params } = validate(c, { params: teamIdParams });
      await deleteTeam(c.get("deps").db, auth.project.id, teamActor(auth), params.team_id.toLowerCase());
      return c.json({ success: true }, 200);
    });
}

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
