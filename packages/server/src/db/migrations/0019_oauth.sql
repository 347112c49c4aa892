-- OAuth sign-in, account linking and connected accounts (issue 15).

-- A user's link to an account at an OAuth provider. `provider_config_id` names the project's provider entry
-- (config `auth.oauth.providers.<id>`), `provider_type` which provider it is. A link may sign in
-- (`allow_sign_in`) and/or hand out provider access tokens (`allow_connected_accounts`).
create table oauth_accounts (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  provider_config_id text not null,
  provider_account_id text not null,
  email text,
  allow_sign_in boolean not null default true,
  allow_connected_accounts boolean not null default true,
  created_at timestamptz not null default now()
);
-- One provider account signs in to one user of a project at most (the sign-in lookup relies on it).
create unique index oauth_accounts_sign_in on oauth_accounts (project_id, provider_config_id, provider_account_id) where allow_sign_in;
-- A user links one provider account once.
create unique index oauth_accounts_user_account on oauth_accounts (user_id, provider_config_id, provider_account_id);
create index oauth_accounts_user on oauth_accounts (user_id);

-- Tokens the provider gave for a link, encrypted with a key derived from the server secret
-- (crypto/sealed-text.ts); several per link (each sign-in or new scope adds one), newest first by use.
create table oauth_tokens (
  id uuid primary key default gen_random_uuid(),
  oauth_account_id uuid not null references oauth_accounts(id) on delete cascade,
  kind text not null check (kind in ('access', 'refresh')),
  sealed_token bytea not null,
  sealing_key_id text not null,
  scopes text[] not null default '{}',
  expires_at timestamptz,
  is_valid boolean not null default true,
  created_at timestamptz not null default now()
);
create index oauth_tokens_account on oauth_tokens (oauth_account_id, kind, created_at desc);

-- The "outer" OAuth flow between the authorize and callback requests: what the client asked for, and the PKCE
-- verifier towards the provider. Named by the hash of the state sent to the provider; used up by the callback
-- with one DELETE … RETURNING, so a state works once even when callbacks race.
create table oauth_outer_states (
  state_hash bytea primary key,
  project_id text not null references projects(id) on delete cascade,
  info jsonb not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index oauth_outer_states_expiry on oauth_outer_states (expires_at);

-- Authorization codes Latchkey hands the client at its redirect_uri, exchanged at /auth/oauth/token. Only the
-- hash is stored; the exchange deletes the row (single use under concurrency) and checks the PKCE verifier.
create table oauth_authorization_codes (
  code_hash bytea primary key,
  project_id text not null references projects(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  redirect_uri text not null,
  code_challenge text not null,
  is_new_user boolean not null,
  after_callback_redirect_url text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index oauth_authorization_codes_expiry on oauth_authorization_codes (expires_at);

-- A user's links are part of the cached user record (`oauth_providers`): changes invalidate it (see 0008).
create trigger oauth_accounts_changes after insert or update or delete on oauth_accounts
  for each row execute function latchkey_notify_change('user', 'user_id');
