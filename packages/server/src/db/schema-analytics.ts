import type { ColumnType, Generated } from "kysely";

/** Table type of the analytics events (migrations/0017_analytics_events.sql); part of `Database` in schema.ts. */

export interface AnalyticsEventsTable {
  id: Generated<string>;
  project_id: string;
  user_id: string;
  event_type: string;
  event_at: Date;
  data: ColumnType<unknown, string, never>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface AnalyticsTables {
  analytics_events: AnalyticsEventsTable;
}
