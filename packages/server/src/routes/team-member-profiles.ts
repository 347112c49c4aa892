import { Hono, type Context } from "hono";
import { teamMemberParams, teamMemberProfileListQuery, teamMemberProfileUpdateBody } from "@latchkey/protocol/schemas";
import { requireAccess } from "../http/auth.js";
import type { AppEnv, RequestAuth } from "../http/context.js";
import { validate } from "../http/validate.js";
import { listMemberProfiles, readMemberProfile, renderClientProfile, renderServerProfiles, updateMemberProfile, type MemberProfile } from "../services/team-member-profiles.js";
import { resolveUserId, teamActor } from "./team-route-helpers.js";

const ANY_ACCESS = ["client", "server", "admin"] as const;

/**
 * Team member profiles (SPEC.md §7 "Teams"): `GET /team-member-profiles?team_id=…[&user_id=…]` and
 * `GET/PATCH /team-member-profiles/{team_id}/{user_id}`. Clients see the profile; servers also the user.
 */
export function teamMemberProfilesRoutes() {
  return new Hono<AppEnv>()
    .get("/team-member-profiles", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { query } = validate(c, { query: teamMemberProfileListQuery });
      const profiles = await listMemberProfiles(c.get("deps").db, auth.project.id, teamActor(auth), {
        teamId: query.team_id?.toLowerCase(),
        userId: query.user_id === undefined ? undefined : resolveUserId(auth, query.user_id),
      });
      return c.json({ items: await renderFor(c, auth, profiles), is_paginated: false }, 200);
    })
    .get("/team-member-profiles/:team_id/:user_id", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { params } = validate(c, { params: teamMemberParams });
      const profile = await readMemberProfile(c.get("deps").db, auth.project.id, teamActor(auth), params.team_id.toLowerCase(), resolveUserId(auth, params.user_id));
      return c.json((await renderFor(c, auth, [profile]))[0], 200);
    })
    .patch("/team-member-profiles/:team_id/:user_id", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { params, body } = validate(c, { params: teamMemberParams, body: teamMemberProfileUpdateBody });
      const profile = await updateMemberProfile(c.get("deps").db, auth.project.id, teamActor(auth), params.team_id.toLowerCase(), resolveUserId(auth, params.user_id), {
        displayName: body.display_name,
        profileImageUrl: body.profile_image_url,
      });
      return c.json((await renderFor(c, auth, [profile]))[0], 200);
    });
}

async function renderFor(c: Context<AppEnv>, auth: RequestAuth, profiles: MemberProfile[]) {
  return auth.type === "client" ? profiles.map(renderClientProfile) : renderServerProfiles(c.get("deps").db, profiles);
}
