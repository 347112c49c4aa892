import type { WebhookEventType } from "./webhook-outbox.js";

/**
 * One example per event type, for Svix's "send example" (`POST …/endpoint/{id}/send-example`, the dashboard's
 * test event): the same shapes the real events carry (the server read shapes; test/webhook-messages.test.ts
 * checks them against the protocol's schemas), with made-up values an app can recognise as an example.
 */
const EXAMPLE_USER_ID = "3241a285-8329-4d69-8f3d-316e08cf140c";
const EXAMPLE_TEAM_ID = "a1b2c3d4-5e6f-4a8b-9c0d-1e2f3a4b5c6d";
const EXAMPLE_TIME = Date.UTC(2026, 0, 1);

const exampleTeam = {
  id: EXAMPLE_TEAM_ID,
  display_name: "Example Team",
  profile_image_url: null,
  client_metadata: null,
  client_read_only_metadata: null,
  created_at_millis: EXAMPLE_TIME,
  server_metadata: null,
};

const exampleUser = {
  id: EXAMPLE_USER_ID,
  primary_email: "john.doe@example.com",
  primary_email_verified: true,
  display_name: "John Doe",
  client_metadata: null,
  client_read_only_metadata: null,
  profile_image_url: null,
  signed_up_at_millis: EXAMPLE_TIME,
  has_password: true,
  auth_with_email: true,
  oauth_providers: [],
  selected_team_id: EXAMPLE_TEAM_ID,
  requires_totp_mfa: false,
  otp_auth_enabled: false,
  passkey_auth_enabled: false,
  is_anonymous: false,
  is_restricted: false,
  restricted_reason: null,
  restricted_by_admin: false,
  restricted_by_admin_reason: null,
  selected_team: exampleTeam,
  primary_email_auth_enabled: true,
  server_metadata: null,
  last_active_at_millis: EXAMPLE_TIME,
  restricted_by_admin_private_details: null,
  country_code: null,
  risk_scores: { sign_up: { bot: 0, free_trial_abuse: 0 } },
};

const membership = { team_id: EXAMPLE_TEAM_ID, user_id: EXAMPLE_USER_ID };

export const WEBHOOK_EXAMPLES: Record<WebhookEventType, unknown> = {
  "user.created": exampleUser,
  "user.updated": exampleUser,
  "user.deleted": { id: EXAMPLE_USER_ID, teams: [{ id: EXAMPLE_TEAM_ID }] },
  "team.created": exampleTeam,
  "team.updated": exampleTeam,
  "team.deleted": { id: EXAMPLE_TEAM_ID },
  "team_membership.created": membership,
  "team_membership.deleted": membership,
  "team_permission.created": { id: "team_member", ...membership },
  "team_permission.deleted": { id: "team_member", ...membership },
  "project_permission.created": { id: "example_permission", user_id: EXAMPLE_USER_ID },
  "project_permission.deleted": { id: "example_permission", user_id: EXAMPLE_USER_ID },
};

export function webhookExample(eventType: string): { type: string; data: unknown } | undefined {
  if (!Object.hasOwn(WEBHOOK_EXAMPLES, eventType)) return undefined;
  return { type: eventType, data: WEBHOOK_EXAMPLES[eventType as WebhookEventType] };
}
