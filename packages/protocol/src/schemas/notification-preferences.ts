import { z } from "zod";
import { userIdOrMe, uuid } from "./ids.js";

/**
 * Notification categories and preferences (SPEC.md §3 "Notification category"), and the server's
 * `POST /emails/send-email` (SPEC.md §3 "Send-email payload", §7 Emails).
 */

/** A category of mail a user may (or may not) opt out of. The ids and names are the protocol's, fixed. */
export interface NotificationCategory {
  id: string;
  name: string;
  /** Whether a user without a stored preference gets this category's mail. */
  defaultEnabled: boolean;
  /** Transactional mail (codes, links to finish a flow) cannot be turned off. */
  canDisable: boolean;
}

export const TRANSACTIONAL_CATEGORY: NotificationCategory = {
  id: "7bb82d33-2f54-4a3d-9d23-82739e0d66ef",
  name: "Transactional",
  defaultEnabled: true,
  canDisable: false,
};

export const MARKETING_CATEGORY: NotificationCategory = {
  id: "4f6f8873-3d04-46bd-8bef-18338b1a1b4c",
  name: "Marketing",
  defaultEnabled: true,
  canDisable: true,
};

/** Every category, in the order the protocol lists them. */
export const NOTIFICATION_CATEGORIES: readonly NotificationCategory[] = [TRANSACTIONAL_CATEGORY, MARKETING_CATEGORY];

/** `GET /emails/notification-preference/{user_id}` (`me` for the signed-in user). */
export const notificationPreferenceListParams = z.object({ user_id: userIdOrMe });

/** `PATCH /emails/notification-preference/{user_id}/{notification_category_id}` */
export const notificationPreferenceParams = z.object({ user_id: userIdOrMe, notification_category_id: uuid });

export const notificationPreferenceUpdateBody = z.strictObject({ enabled: z.boolean() });
export type NotificationPreferenceUpdateBody = z.infer<typeof notificationPreferenceUpdateBody>;

/** One category as a user sees it. */
export const notificationPreferenceRead = z.strictObject({
  notification_category_id: z.string(),
  notification_category_name: z.string(),
  enabled: z.boolean(),
  can_disable: z.boolean(),
});
export type NotificationPreferenceRead = z.infer<typeof notificationPreferenceRead>;

/** `GET /emails/notification-preference/{user_id}`: every category, in one unpaginated list. */
export const notificationPreferenceListResponse = z.strictObject({
  items: z.array(notificationPreferenceRead),
  is_paginated: z.literal(false),
});

/** `GET|POST /emails/unsubscribe-link?code=` — the link in non-transactional mail; needs no authentication. */
export const unsubscribeLinkQuery = z.object({ code: z.string() });
