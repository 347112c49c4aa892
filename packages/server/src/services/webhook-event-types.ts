import type { WebhookEventType } from "./webhook-outbox.js";

/**
 * The event types Latchkey sends, with the descriptions the reference gives them, for Svix's event type list
 * (`GET /api/v1/event-type`): an app portal or a script offers them as endpoint filters.
 */
export const WEBHOOK_EVENT_TYPES: Record<WebhookEventType, string> = {
  "user.created": "This event is triggered when a user is created.",
  "user.updated": "This event is triggered when a user is updated.",
  "user.deleted": "This event is triggered when a user is deleted.",
  "team.created": "This event is triggered when a team is created.",
  "team.updated": "This event is triggered when a team is updated.",
  "team.deleted": "This event is triggered when a team is deleted.",
  "team_membership.created": "This event is triggered when a user is added to a team.",
  "team_membership.deleted": "This event is triggered when a user is removed from a team.",
  "team_permission.created": "This event is triggered when a team permission is created.",
  "team_permission.deleted": "This event is triggered when a team permission is deleted.",
  "project_permission.created": "This event is triggered when a project permission is created.",
  "project_permission.deleted": "This event is triggered when a project permission is deleted.",
};
