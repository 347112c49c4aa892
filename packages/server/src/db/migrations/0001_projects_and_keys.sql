-- Projects, their owner teams and their API key sets (issue 2).
-- Every id is a UUID except the project id `internal`, so project ids are text.

create table projects (
  id text primary key,
  display_name text not null,
  description text,
  created_at timestamptz not null default now(),
  is_production_mode boolean not null default false,
  -- The team (in the internal project) that owns this project; set when projects are created by users.
  owner_team_id uuid,
  logo_url text,
  full_logo_url text,
  -- The project's config as an override over the defaults (dotted keys allowed); behaviour is added by
  -- later issues, not columns.
  config_override jsonb not null default '{}'::jsonb
);

create table teams (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  display_name text not null,
  profile_image_url text,
  client_metadata jsonb,
  client_read_only_metadata jsonb,
  server_metadata jsonb,
  created_at timestamptz not null default now()
);
create index teams_project_id on teams (project_id);

alter table projects add constraint projects_owner_team_fk foreign key (owner_team_id) references teams(id) on delete set null;

-- Internal API key sets: any of the three keys, each stored only as a SHA-256 hash plus its last four
-- characters for display.
create table api_key_sets (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  description text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  manually_revoked_at timestamptz,
  publishable_client_key_hash bytea,
  publishable_client_key_last_four text,
  secret_server_key_hash bytea,
  secret_server_key_last_four text,
  super_secret_admin_key_hash bytea,
  super_secret_admin_key_last_four text
);
create index api_key_sets_project_id on api_key_sets (project_id);
