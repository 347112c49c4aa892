-- API keys that a project's users and teams hold (the protocol's user and team API keys, issue 5).
-- The key embeds this row's id; only a SHA-256 of the whole key is stored, and its last four characters
-- for display.
create table project_api_keys (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  type text not null check (type in ('user', 'team')),
  user_id uuid references users(id) on delete cascade,
  team_id uuid references teams(id) on delete cascade,
  description text not null,
  is_public boolean not null default false,
  secret_hash bytea not null,
  last_four text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  manually_revoked_at timestamptz,
  -- A key belongs to exactly one owner of its type.
  check ((type = 'user' and user_id is not null and team_id is null) or (type = 'team' and team_id is not null and user_id is null))
);
create index project_api_keys_user on project_api_keys (user_id) where user_id is not null;
create index project_api_keys_team on project_api_keys (team_id) where team_id is not null;
