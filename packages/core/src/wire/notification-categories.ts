import type { NotificationPreferenceRead } from "@latchkey/protocol/schemas";

/** A category of mail with the signed-in user's choice (GET /emails/notification-preference/me). */
export interface NotificationCategory {
  id: string;
  name: string;
  enabled: boolean;
  /** False for transactional mail (codes, links that finish a flow): it cannot be turned off. */
  canDisable: boolean;
}

export function notificationCategoryFromWire(wire: NotificationPreferenceRead): NotificationCategory {
  return { id: wire.notification_category_id, name: wire.notification_category_name, enabled: wire.enabled, canDisable: wire.can_disable };
}
