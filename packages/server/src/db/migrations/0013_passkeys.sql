-- Passkeys (WebAuthn, issue 8). As in the protocol's reference, a user holds at most one passkey: a new
-- registration replaces it (services/passkeys.ts keeps that rule under a lock on the user's row).
create table passkey_credentials (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  -- The authenticator's credential id, base64url as the browser reports it; sign-in finds the passkey by it.
  credential_id text not null,
  -- COSE public key as the authenticator gave it at registration.
  public_key bytea not null,
  -- Signature counter (WebAuthn §6.1.1): a value that does not grow points to a cloned authenticator.
  counter bigint not null default 0,
  transports jsonb not null default '[]',
  device_type text not null,
  backed_up boolean not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  unique (project_id, credential_id)
);
create index passkey_credentials_user on passkey_credentials (user_id);

-- WebAuthn challenges handed out by the initiate-* routes. The `code` returned with the options names the
-- row (only its hash is stored); register / sign-in use it up with one conditional UPDATE, so a challenge
-- works once even when requests race. Registration challenges belong to the user who asked for them.
create table passkey_challenges (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  purpose text not null check (purpose in ('registration', 'authentication')),
  code_hash bytea not null unique,
  challenge text not null,
  user_id uuid references users(id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index passkey_challenges_expiry on passkey_challenges (project_id, expires_at);
