-- Users, their contact channels, team memberships and sessions (issue 3).

create table users (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  display_name text,
  profile_image_url text,
  -- Modular crypt format: our argon2id, or an imported bcrypt/argon2 hash upgraded at the next sign-in.
  password_hash text,
  totp_secret bytea,
  otp_auth_enabled boolean not null default false,
  passkey_auth_enabled boolean not null default false,
  is_anonymous boolean not null default false,
  client_metadata jsonb,
  client_read_only_metadata jsonb,
  server_metadata jsonb,
  selected_team_id uuid references teams(id) on delete set null,
  created_at timestamptz not null default now(),
  -- Bumped at most once a minute per session (see sessions.last_used_at), never once per request.
  last_active_at timestamptz not null default now()
);
create index users_project_created on users (project_id, created_at, id);

-- The primary email is the user's primary email contact channel.
create table contact_channels (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  type text not null check (type in ('email')),
  value text not null,
  is_verified boolean not null default false,
  is_primary boolean not null default false,
  used_for_auth boolean not null default false,
  created_at timestamptz not null default now(),
  unique (user_id, type, value)
);
-- One account per sign-in email in a project, enforced here so concurrent sign-ups cannot both win.
create unique index contact_channels_auth_value on contact_channels (project_id, type, value) where used_for_auth;
create unique index contact_channels_one_primary on contact_channels (user_id, type) where is_primary;
create index contact_channels_value on contact_channels (project_id, value);

create table team_members (
  project_id text not null references projects(id) on delete cascade,
  team_id uuid not null references teams(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  -- The member's profile in this team, separate from the user's own.
  display_name text,
  profile_image_url text,
  created_at timestamptz not null default now(),
  primary key (team_id, user_id)
);
create index team_members_user on team_members (user_id);

-- A session is one refresh token; access tokens name it in refresh_token_id.
create table sessions (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  refresh_token_hash bytea not null unique,
  is_impersonation boolean not null default false,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  last_used_at timestamptz not null default now(),
  last_used_ip text
);
create index sessions_user on sessions (user_id);
