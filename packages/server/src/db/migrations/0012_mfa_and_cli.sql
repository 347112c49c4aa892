-- TOTP multi-factor sign-in and the command-line login flow (issue 8, SPEC §4).

-- The last TOTP time step accepted per user, so a code is accepted once (a replay in the same 30-second window
-- is refused). It is advanced by one conditional upsert, so two parallel requests cannot both pass. The
-- secret's hash tells a new secret (MFA disabled and enabled again) from the old one: a new secret starts over.
create table totp_used_steps (
  user_id uuid primary key references users(id) on delete cascade,
  secret_hash bytea not null,
  last_used_step bigint not null
);

-- One command-line login: the CLI holds the polling code, the browser the login code. Only their hashes are
-- stored. Completing it records whose session the browser confirmed; the CLI's own session (its refresh
-- token) is made at the one poll that claims it, so no token is ever stored.
create table cli_auth_attempts (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  polling_code_hash bytea not null,
  login_code_hash bytea not null,
  -- Set by /auth/cli/complete: the user who confirmed in the browser.
  user_id uuid references users(id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  completed_at timestamptz,
  -- Set by the poll that handed out the refresh token; later polls answer "used".
  used_at timestamptz
);
create unique index cli_auth_attempts_polling_code on cli_auth_attempts (project_id, polling_code_hash);
create unique index cli_auth_attempts_login_code on cli_auth_attempts (project_id, login_code_hash);
create index cli_auth_attempts_expires on cli_auth_attempts (expires_at);
