import type {
  ContactChannelRead,
  NotificationPreferenceRead,
  OAuthProviderClientRead,
  ProjectApiKeyCreated,
  ProjectApiKeyRead,
  SessionRead,
  TeamClientRead,
  TeamInvitationRead,
  TeamMemberProfileClientRead,
  TeamMemberRolesRead,
} from "@latchkey/protocol/schemas";

/**
 * Canned records for the account and team stories, typed with the protocol's read shapes so a change of the
 * wire contract breaks the stories' type check instead of silently showing something the server never sends.
 * Times are fixed relative to a story's render, so "2 hours ago" reads the same every time.
 */

export const STORY_USER_ID = "0b8f6c1e-5d2a-4c3b-9e7f-1a2b3c4d5e6f";
export const OTHER_USER_ID = "5c7e9a1b-2d3f-4a5b-8c6d-7e8f9a0b1c2d";
export const THIRD_USER_ID = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a";

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

export function contactChannels(userId = STORY_USER_ID): ContactChannelRead[] {
  return [
    { id: "1a2b3c4d-0000-4000-8000-000000000001", user_id: userId, type: "email", value: "ada@example.com", is_primary: true, is_verified: true, used_for_auth: true },
    { id: "1a2b3c4d-0000-4000-8000-000000000002", user_id: userId, type: "email", value: "ada.work@example.org", is_primary: false, is_verified: false, used_for_auth: false },
  ];
}

export function sessions(userId = STORY_USER_ID, now = Date.now()): SessionRead[] {
  return [
    { id: "2b3c4d5e-0000-4000-8000-000000000001", user_id: userId, created_at: now - 30 * DAY, last_used_at: now - 60 * 1000, is_impersonation: false, is_current_session: true },
    { id: "2b3c4d5e-0000-4000-8000-000000000002", user_id: userId, created_at: now - 12 * DAY, last_used_at: now - 2 * HOUR, is_impersonation: false, is_current_session: false },
    { id: "2b3c4d5e-0000-4000-8000-000000000003", user_id: userId, created_at: now - 90 * DAY, last_used_at: now - 20 * DAY, is_impersonation: false, is_current_session: false },
  ];
}

/** The protocol's two fixed categories: transactional mail cannot be turned off, marketing can. */
export function notificationPreferences(marketing = true): NotificationPreferenceRead[] {
  return [
    { notification_category_id: "7bb82d33-2f54-4a3d-9d23-82739e0d66ef", notification_category_name: "Transactional", enabled: true, can_disable: false },
    { notification_category_id: "4f6f8873-3d04-46bd-8bef-18338b1a1b4c", notification_category_name: "Marketing", enabled: marketing, can_disable: true },
  ];
}

export function apiKeys(userId = STORY_USER_ID, now = Date.now()): ProjectApiKeyRead[] {
  const key = (n: number, description: string, extra: { expires_at_millis?: number; manually_revoked_at_millis?: number }): ProjectApiKeyRead => ({
    id: `3c4d5e6f-0000-4000-8000-00000000000${n}`,
    description,
    created_at_millis: now - 40 * DAY,
    is_public: false,
    value: { last_four: `k${n}x${n}` },
    type: "user",
    user_id: userId,
    ...extra,
  });
  return [
    key(1, "Deploy script", { expires_at_millis: now + 60 * DAY }),
    key(2, "Laptop CLI", {}),
    key(3, "Old CI runner", { expires_at_millis: now + 30 * DAY, manually_revoked_at_millis: now - 3 * DAY }),
    key(4, "Trial integration", { expires_at_millis: now - 5 * DAY }),
  ];
}

/** The create answer: the whole key, shown once. */
export function createdApiKey(userId = STORY_USER_ID, now = Date.now()): ProjectApiKeyCreated {
  return {
    id: "3c4d5e6f-0000-4000-8000-000000000009",
    description: "Build server",
    created_at_millis: now,
    expires_at_millis: now + 90 * DAY,
    is_public: false,
    value: "lk_user_9f8e7d6c5b4a39281706f5e4d3c2b1a0story",
    type: "user",
    user_id: userId,
  };
}

export const TEAMS: TeamClientRead[] = [
  { id: "4d5e6f70-0000-4000-8000-000000000001", display_name: "Analytical Engines", profile_image_url: null, client_metadata: null, client_read_only_metadata: null },
  { id: "4d5e6f70-0000-4000-8000-000000000002", display_name: "Difference Club", profile_image_url: null, client_metadata: null, client_read_only_metadata: null },
  { id: "4d5e6f70-0000-4000-8000-000000000003", display_name: "Poetical Science", profile_image_url: null, client_metadata: null, client_read_only_metadata: null },
];

export const TEAM_ID = TEAMS[0]!.id;

/** What the team's creator holds (the default "team admin" role of SPEC §7). */
export const ADMIN_PERMISSIONS = ["team_admin", "$update_team", "$delete_team", "$read_members", "$remove_members", "$invite_members"];
/** A plain member sees the members, and nothing else. */
export const MEMBER_PERMISSIONS = ["team_member", "$read_members"];

export function teamPermissions(ids: string[], teamId = TEAM_ID, userId = STORY_USER_ID) {
  return ids.map((id) => ({ id, team_id: teamId, user_id: userId }));
}

export function teamMembers(teamId = TEAM_ID): TeamMemberProfileClientRead[] {
  return [
    { team_id: teamId, user_id: STORY_USER_ID, display_name: "Ada Lovelace", profile_image_url: null },
    { team_id: teamId, user_id: OTHER_USER_ID, display_name: "Charles Babbage", profile_image_url: null },
    { team_id: teamId, user_id: THIRD_USER_ID, display_name: null, profile_image_url: null },
  ];
}

/**
 * The members' roles (GET /team-member-roles, a Latchkey extension): two admins, so either may leave;
 * `onlyAdmin` makes the story user the team's only one (Leave is then held back and explained).
 */
export function teamMemberRoles(options: { onlyAdmin?: boolean } = {}): TeamMemberRolesRead[] {
  return [
    { user_id: STORY_USER_ID, permission_ids: ["team_admin"], is_admin: true },
    options.onlyAdmin
      ? { user_id: OTHER_USER_ID, permission_ids: ["team_member"], is_admin: false }
      : { user_id: OTHER_USER_ID, permission_ids: ["team_admin"], is_admin: true },
    { user_id: THIRD_USER_ID, permission_ids: ["team_member"], is_admin: false },
  ];
}

export function teamInvitations(teamId = TEAM_ID, now = Date.now()): TeamInvitationRead[] {
  return [
    { id: "5e6f7081-0000-4000-8000-000000000001", team_id: teamId, team_display_name: "Analytical Engines", recipient_email: "mary.somerville@example.com", expires_at_millis: now + 6 * DAY },
    { id: "5e6f7081-0000-4000-8000-000000000002", team_id: teamId, team_display_name: "Analytical Engines", recipient_email: "michael.faraday@example.com", expires_at_millis: now + 2 * DAY },
  ];
}

/** The user's OAuth links as `GET /oauth-providers` lists them to a client. */
export function oauthLinks(userId = STORY_USER_ID): OAuthProviderClientRead[] {
  return [
    { user_id: userId, id: "7a1b2c3d-0000-4000-8000-000000000001", email: "ada@example.com", provider_config_id: "github", type: "github", allow_sign_in: true, allow_connected_accounts: true },
    { user_id: userId, id: "7a1b2c3d-0000-4000-8000-000000000002", email: "ada.lovelace@example.org", provider_config_id: "gitlab", type: "gitlab", allow_sign_in: false, allow_connected_accounts: true },
  ];
}
