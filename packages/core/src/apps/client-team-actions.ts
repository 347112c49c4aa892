import type {
  TeamClientRead,
  TeamInvitationDetails as WireTeamInvitationDetails,
  TeamInvitationRead,
  TeamMemberProfileClientRead,
  TeamMemberRolesRead,
  TeamPermissionRead,
} from "@latchkey/protocol/schemas";
import { teamInvitationDetailsFromWire, teamInvitationFromWire, type TeamInvitation, type TeamInvitationDetails } from "../wire/team-invitations.js";
import {
  teamMemberProfileFromWire,
  teamMemberProfileUpdateToWire,
  teamMemberRolesFromWire,
  type TeamMemberProfile,
  type TeamMemberProfileUpdate,
  type TeamMemberRoles,
} from "../wire/team-member-profiles.js";
import { teamCreateToWire, teamFromWire, teamUpdateToWire, type Team, type TeamCreate, type TeamUpdate } from "../wire/teams.js";
import type { AppContext } from "./app-context.js";

/**
 * The signed-in user's teams (SPEC.md §7 "Teams", "Permissions"): creating and selecting teams, editing and
 * deleting them, members and their profiles, invitations, and the user's own permissions in a team. What a
 * member may do is decided by the server from their team permissions; a refusal arrives as the catalogue's
 * typed error (e.g. `KnownErrors.TeamPermissionRequired`).
 */
export interface ClientTeamActions {
  /** Creates a team with the signed-in user as its first member, then selects it with its own `PATCH /users/me`. */
  createTeam(create: TeamCreate): Promise<Team>;
  /** Makes a team (or none) the user's selected team. */
  selectTeam(teamId: string | null): Promise<void>;
  updateTeam(teamId: string, update: TeamUpdate): Promise<Team>;
  deleteTeam(teamId: string): Promise<void>;
  leaveTeam(teamId: string): Promise<void>;
  listTeamMembers(teamId: string): Promise<TeamMemberProfile[]>;
  /** Each member's roles and whether they administer the team (needs `$read_members`; a Latchkey extension). */
  listTeamMemberRoles(teamId: string): Promise<TeamMemberRoles[]>;
  /** Changes the signed-in user's name and image in one team (their profile elsewhere stays as it is). */
  updateMyTeamProfile(teamId: string, update: TeamMemberProfileUpdate): Promise<TeamMemberProfile>;
  /**
   * Mails an invitation; its link leads to `callbackUrl` (default: the team-invitation page). `permissionIds`
   * (a Latchkey extension): roles the person gets on joining, on top of the member defaults; the user must
   * hold each of them.
   */
  inviteToTeam(teamId: string, input: { email: string; callbackUrl?: string; permissionIds?: string[] }): Promise<void>;
  listTeamInvitations(teamId: string): Promise<TeamInvitation[]>;
  revokeTeamInvitation(teamId: string, invitationId: string): Promise<void>;
  removeTeamMember(teamId: string, userId: string): Promise<void>;
  /** Which team an invitation code is for, without using it up. */
  getTeamInvitationDetails(code: string): Promise<TeamInvitationDetails>;
  /** Joins the team of an invitation code (the code is then used up). */
  acceptTeamInvitation(code: string): Promise<void>;
  /** The ids of the signed-in user's permissions in a team, including those contained in others. */
  listMyTeamPermissions(teamId: string): Promise<string[]>;
}

const id = (value: string) => encodeURIComponent(value);

/** `afterChange` reloads `$user` and `$teams` after an edit (a team's name, membership, the selected team). */
export function clientTeamActions(ctx: AppContext, afterChange: () => Promise<void>): ClientTeamActions {
  const selectTeam = async (teamId: string | null) => {
    await ctx.call({ method: "PATCH", path: "/users/me", body: { selected_team_id: teamId } });
  };

  return {
    async createTeam(create) {
      const wire = await ctx.call<TeamClientRead>({ method: "POST", path: "/teams", body: teamCreateToWire(create) });
      // Creating a team leaves the selected team as it was on the server (as in the protocol); the client
      // selects the new one itself, as the reference's SDK does, so the switcher shows the team just made.
      await selectTeam(wire.id);
      await afterChange();
      return teamFromWire(wire);
    },

    async selectTeam(teamId) {
      await selectTeam(teamId);
      await afterChange();
    },

    async updateTeam(teamId, update) {
      const wire = await ctx.call<TeamClientRead>({ method: "PATCH", path: `/teams/${id(teamId)}`, body: teamUpdateToWire(update) });
      await afterChange();
      return teamFromWire(wire);
    },

    async deleteTeam(teamId) {
      await ctx.call({ method: "DELETE", path: `/teams/${id(teamId)}` });
      await afterChange();
    },

    async leaveTeam(teamId) {
      await ctx.call({ method: "DELETE", path: `/team-memberships/${id(teamId)}/me`, body: {} });
      await afterChange();
    },

    async listTeamMembers(teamId) {
      const { items } = await ctx.call<{ items: TeamMemberProfileClientRead[] }>({ method: "GET", path: "/team-member-profiles", query: { team_id: teamId } });
      return items.map(teamMemberProfileFromWire);
    },

    async listTeamMemberRoles(teamId) {
      const { items } = await ctx.call<{ items: TeamMemberRolesRead[] }>({ method: "GET", path: "/team-member-roles", query: { team_id: teamId } });
      return items.map(teamMemberRolesFromWire);
    },

    async updateMyTeamProfile(teamId, update) {
      const wire = await ctx.call<TeamMemberProfileClientRead>({
        method: "PATCH",
        path: `/team-member-profiles/${id(teamId)}/me`,
        body: teamMemberProfileUpdateToWire(update),
      });
      return teamMemberProfileFromWire(wire);
    },

    async inviteToTeam(teamId, { email, callbackUrl, permissionIds }) {
      await ctx.call({
        method: "POST",
        path: "/team-invitations/send-code",
        // Mail links must be absolute: the invited person opens them from their inbox.
        body: {
          team_id: teamId,
          email,
          callback_url: callbackUrl ?? ctx.absoluteUrl(ctx.urls.teamInvitation),
          // Sent only with roles, so an invitation without stays the protocol's request.
          ...(permissionIds?.length ? { permission_ids: permissionIds } : {}),
        },
      });
    },

    async listTeamInvitations(teamId) {
      const { items } = await ctx.call<{ items: TeamInvitationRead[] }>({ method: "GET", path: "/team-invitations", query: { team_id: teamId } });
      return items.map(teamInvitationFromWire);
    },

    async revokeTeamInvitation(teamId, invitationId) {
      await ctx.call({ method: "DELETE", path: `/team-invitations/${id(invitationId)}`, query: { team_id: teamId } });
    },

    async removeTeamMember(teamId, userId) {
      await ctx.call({ method: "DELETE", path: `/team-memberships/${id(teamId)}/${id(userId)}`, body: {} });
      await afterChange();
    },

    async getTeamInvitationDetails(code) {
      return teamInvitationDetailsFromWire(await ctx.call<WireTeamInvitationDetails>({ method: "POST", path: "/team-invitations/accept/details", body: { code } }));
    },

    async acceptTeamInvitation(code) {
      await ctx.call({ method: "POST", path: "/team-invitations/accept", body: { code } });
      await afterChange();
    },

    async listMyTeamPermissions(teamId) {
      const { items } = await ctx.call<{ items: TeamPermissionRead[] }>({
        method: "GET",
        path: "/team-permissions",
        query: { team_id: teamId, user_id: "me", recursive: true },
      });
      return items.map((permission) => permission.id);
    },
  };
}
