-- Notification preferences (issue 4, SPEC §3 "Notification category"): a row only where a user changed a
-- category from its default. The categories themselves are fixed by the protocol and live in code.

create table notification_preferences (
  project_id text not null references projects(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  notification_category_id uuid not null,
  enabled boolean not null,
  updated_at timestamptz not null default now(),
  primary key (user_id, notification_category_id)
);

-- The periodic sweep of spent verification codes (services/verification-code-cleanup.ts) finds rows by
-- expiry and by use; without these it would scan the whole table every few minutes.
create index verification_codes_expires_at on verification_codes (expires_at);
create index verification_codes_used_at on verification_codes (used_at) where used_at is not null;
