/** Errors about teams and team memberships. */
import { defineKnownError } from "./known-error.js";

export const TeamNotFound = defineKnownError("TEAM_NOT_FOUND", {
  status: 404,
  build: (teamId: string) => ({ message: `Team ${teamId} not found.`, details: { team_id: teamId } }),
  fromDetails: (d) => [d?.team_id],
});

export const TeamMembershipNotFound = defineKnownError("TEAM_MEMBERSHIP_NOT_FOUND", {
  status: 404,
  build: (teamId: string, userId: string) => ({
    message: `User ${userId} is not found in team ${teamId}.`,
    details: { team_id: teamId, user_id: userId },
  }),
  fromDetails: (d) => [d?.team_id, d?.user_id],
});

export const TeamMembershipAlreadyExists = defineKnownError("TEAM_MEMBERSHIP_ALREADY_EXISTS", {
  status: 409,
  build: () => ({ message: "Team membership already exists." }),
  fromDetails: () => [],
});
