import type { Context } from "hono";
import { KnownErrors } from "@latchkey/protocol/errors";
import { teamMemberParams, teamMemberProfileListQuery, teamMemberProfileListResponse, teamMemberProfileRead, teamMemberProfileUpdateBody } from "@latchkey/protocol/schemas";
import type { AppEnv, RequestAuth } from "../http/context.js";
import { ANY_ACCESS, defineRoute } from "../http/route.js";
import { listMemberProfiles, readMemberProfile, renderClientProfile, renderServerProfiles, updateMemberProfile, type MemberProfile } from "../services/team-member-profiles.js";
import { checkProfileImageUrl } from "../services/profile-images.js";
import { restrictionPolicy } from "../services/user-restrictions.js";
import { resolveUserId, teamActor } from "./team-route-helpers.js";

const TAGS = ["Teams"];
const MEMBER_ERRORS = [KnownErrors.TeamMembershipNotFound, KnownErrors.TeamPermissionRequired, KnownErrors.UserNotFound, KnownErrors.CannotGetOwnUserWithoutUser];

/**
 * Team member profiles (SPEC.md §7 "Teams"): `GET /team-member-profiles?team_id=…[&user_id=…]` and
 * `GET/PATCH /team-member-profiles/{team_id}/{user_id}`. Clients see the profile; servers also the user.
 */
export const teamMemberProfilesRoutes = [
  defineRoute({
    method: "get",
    path: "/team-member-profiles",
    summary: "List team member profiles",
    description: "A client names a team it is in (`team_id`) and sees its own profile, or every member's with `$read_members`; a server filters by team and/or user.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { query: teamMemberProfileListQuery },
    response: { description: "The profiles, in order of joining.", schema: teamMemberProfileListResponse },
    errors: [...MEMBER_ERRORS, KnownErrors.TeamNotFound],
    handler: async (c, { auth, query }) => {
      const profiles = await listMemberProfiles(c.get("deps").db, auth.project.id, teamActor(auth), {
        teamId: query.team_id?.toLowerCase(),
        userId: query.user_id === undefined ? undefined : resolveUserId(auth, query.user_id),
      });
      return { items: await renderFor(c, auth, profiles), is_paginated: false } as const;
    },
  }),
  defineRoute({
    method: "get",
    path: "/team-member-profiles/:team_id/:user_id",
    summary: "Read a team member profile",
    description: "A client reads its own profile (`me`), or another member's with `$read_members`.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: teamMemberParams },
    response: { description: "The profile, in the caller's shape.", schema: teamMemberProfileRead },
    errors: MEMBER_ERRORS,
    handler: async (c, { auth, params }) => {
      const profile = await readMemberProfile(c.get("deps").db, auth.project.id, teamActor(auth), params.team_id.toLowerCase(), resolveUserId(auth, params.user_id));
      return (await renderFor(c, auth, [profile]))[0]!;
    },
  }),
  defineRoute({
    method: "patch",
    path: "/team-member-profiles/:team_id/:user_id",
    summary: "Update a team member profile",
    description: "A client changes only its own profile (`me`); a server any member's.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: teamMemberParams, body: teamMemberProfileUpdateBody },
    response: { description: "The updated profile, in the caller's shape.", schema: teamMemberProfileRead },
    errors: MEMBER_ERRORS,
    handler: async (c, { auth, params, body }) => {
      const profile = await updateMemberProfile(c.get("deps").db, auth.project.id, teamActor(auth), params.team_id.toLowerCase(), resolveUserId(auth, params.user_id), {
        displayName: body.display_name,
        // The protocol lets a member set any URL here; an uploaded image is stored all the same.
        profileImage: checkProfileImageUrl(body.profile_image_url, { publicUrl: c.get("deps").env.publicUrl, uploadsOnly: false }),
      });
      return (await renderFor(c, auth, [profile]))[0]!;
    },
  }),
];

async function renderFor(c: Context<AppEnv>, auth: RequestAuth, profiles: MemberProfile[]) {
  return auth.type === "client" ? profiles.map(renderClientProfile) : renderServerProfiles(c.get("deps").db, profiles, restrictionPolicy(auth.project));
}
