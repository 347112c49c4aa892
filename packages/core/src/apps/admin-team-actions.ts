import { hostedHandlerPath } from "@latchkey/protocol/hosted-pages";
import type { TeamInvitationRead, TeamMemberProfileServerRead, TeamPermissionRead, TeamServerRead } from "@latchkey/protocol/schemas";
import {
  serverTeamCreateToWire,
  serverTeamFromWire,
  serverTeamMemberFromWire,
  serverTeamUpdateToWire,
  type ServerTeam,
  type ServerTeamCreate,
  type ServerTeamMember,
  type ServerTeamUpdate,
} from "../wire/server-teams.js";
import { teamInvitationFromWire, type TeamInvitation } from "../wire/team-invitations.js";
import type { AppContext } from "./app-context.js";

/** One direct grant of a team permission to a member (`(teamId, userId, permissionId)` identifies it). */
export interface TeamPermissionGrant {
  teamId: string;
  userId: string;
  permissionId: string;
}

const id = (value: string) => encodeURIComponent(value);

/**
 * Any team of the project, managed with server access (SPEC.md §7 "Teams", "Permissions"): the teams with
 * their server fields, members (with their users), invitations and members' team permissions. Unlike the
 * client's team actions these act on no one's behalf, so no member's permissions limit them.
 *
 * `baseUrl` is the Latchkey server: invitation links lead to the project's hosted team-invitation page on it
 * unless a callback URL is given.
 */
export function adminTeamActions(ctx: AppContext, baseUrl: string) {
  return {
    /** Every team of the project (or only a user's), oldest first; the API has no paging or search for teams. */
    async listServerTeams(options: { userId?: string } = {}): Promise<ServerTeam[]> {
      const { items } = await ctx.call<{ items: TeamServerRead[] }>({ method: "GET", path: "/teams", query: { user_id: options.userId }, session: null });
      return items.map(serverTeamFromWire);
    },

    async getServerTeam(teamId: string): Promise<ServerTeam> {
      return serverTeamFromWire(await ctx.call<TeamServerRead>({ method: "GET", path: `/teams/${id(teamId)}`, session: null }));
    },

    /** Creates a team; with `creatorUserId` that user joins it with the creator defaults, without it the team starts empty. */
    async createServerTeam(create: ServerTeamCreate): Promise<ServerTeam> {
      return serverTeamFromWire(await ctx.call<TeamServerRead>({ method: "POST", path: "/teams", body: serverTeamCreateToWire(create), session: null }));
    },

    async updateServerTeam(teamId: string, update: ServerTeamUpdate): Promise<ServerTeam> {
      const wire = await ctx.call<TeamServerRead>({ method: "PATCH", path: `/teams/${id(teamId)}`, body: serverTeamUpdateToWire(update), session: null });
      return serverTeamFromWire(wire);
    },

    /** Deletes a team with its memberships and pending invitations. */
    async deleteServerTeam(teamId: string): Promise<void> {
      await ctx.call({ method: "DELETE", path: `/teams/${id(teamId)}`, session: null });
    },

    /** The team's members in order of joining, each with their user. */
    async listServerTeamMembers(teamId: string): Promise<ServerTeamMember[]> {
      const { items } = await ctx.call<{ items: TeamMemberProfileServerRead[] }>({ method: "GET", path: "/team-member-profiles", query: { team_id: teamId }, session: null });
      return items.map(serverTeamMemberFromWire);
    },

    /** Makes a user a member, with the project's member default permissions. */
    async addServerTeamMember(teamId: string, userId: string): Promise<void> {
      await ctx.call({ method: "POST", path: `/team-memberships/${id(teamId)}/${id(userId)}`, body: {}, session: null });
    },

    async removeServerTeamMember(teamId: string, userId: string): Promise<void> {
      await ctx.call({ method: "DELETE", path: `/team-memberships/${id(teamId)}/${id(userId)}`, body: {}, session: null });
    },

    /** The team's pending invitations, oldest first. */
    async listServerTeamInvitations(teamId: string): Promise<TeamInvitation[]> {
      const { items } = await ctx.call<{ items: TeamInvitationRead[] }>({ method: "GET", path: "/team-invitations", query: { team_id: teamId }, session: null });
      return items.map(teamInvitationFromWire);
    },

    /**
     * Mails an invitation to the team. Its link leads to `callbackUrl` (one of the project's trusted domains),
     * by default the project's team-invitation page hosted by the server.
     */
    async sendServerTeamInvitation(teamId: string, input: { email: string; callbackUrl?: string }): Promise<{ invitationId: string }> {
      const callbackUrl = input.callbackUrl ?? `${baseUrl.replace(/\/+$/, "")}${hostedHandlerPath(ctx.projectId)}/team-invitation`;
      const sent = await ctx.call<{ id: string }>({ method: "POST", path: "/team-invitations/send-code", body: { team_id: teamId, email: input.email, callback_url: callbackUrl }, session: null });
      return { invitationId: sent.id };
    },

    /** Revokes an invitation: its link stops working. */
    async revokeServerTeamInvitation(teamId: string, invitationId: string): Promise<void> {
      await ctx.call({ method: "DELETE", path: `/team-invitations/${id(invitationId)}`, query: { team_id: teamId }, session: null });
    },

    /** The team permissions granted directly to the team's members (not those contained in them). */
    async listTeamPermissionGrants(teamId: string): Promise<TeamPermissionGrant[]> {
      const { items } = await ctx.call<{ items: TeamPermissionRead[] }>({ method: "GET", path: "/team-permissions", query: { team_id: teamId }, session: null });
      return items.map((grant) => ({ teamId: grant.team_id, userId: grant.user_id, permissionId: grant.id }));
    },

    /** Grants a member one of the project's team permissions (or a `$…` system one) in the team. */
    async grantTeamPermission(teamId: string, userId: string, permissionId: string): Promise<void> {
      await ctx.call({ method: "POST", path: `/team-permissions/${id(teamId)}/${id(userId)}/${id(permissionId)}`, body: {}, session: null });
    },

    /** Revokes a direct grant (a permission held only through another one stays until that one goes). */
    async revokeTeamPermission(teamId: string, userId: string, permissionId: string): Promise<void> {
      await ctx.call({ method: "DELETE", path: `/team-permissions/${id(teamId)}/${id(userId)}/${id(permissionId)}`, session: null });
    },
  };
}
