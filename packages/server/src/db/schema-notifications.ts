import type { ColumnType } from "kysely";

/** Table types of the notification tables (migrations/0005_*.sql); part of `Database` in schema.ts. */

export interface NotificationPreferencesTable {
  project_id: string;
  user_id: string;
  notification_category_id: string;
  enabled: boolean;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface NotificationTables {
  notification_preferences: NotificationPreferencesTable;
}
