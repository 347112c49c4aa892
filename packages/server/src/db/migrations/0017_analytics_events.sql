-- Analytics events that 2.8.108 clients send on their own (page views and clicks, `POST /analytics/events/batch`,
-- issue 14): kept for a while so they can be looked at, then deleted (services/analytics-events.ts). Minimal on
-- purpose: who (project, user: anonymous users included), what, when, and the event's own data.
create table analytics_events (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  event_type text not null,
  -- The client's clock.
  event_at timestamptz not null,
  data jsonb not null,
  -- The server's clock: what retention counts from.
  created_at timestamptz not null default now()
);
create index analytics_events_project_event_at on analytics_events (project_id, event_at);
create index analytics_events_created_at on analytics_events (created_at);
create index analytics_events_user on analytics_events (user_id);
