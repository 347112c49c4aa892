-- Access-token signing keys (services/signing-keys.ts has the whole design). A generation is a 32-byte seed
-- from which every audience's ES256 key pair is derived; it is encrypted (AES-256-GCM) with a key derived
-- from the server secret, `wrapping_key_id` naming which secret. Its life: next (published in the JWKS,
-- signs nothing: activated_at is null) → current (signs new tokens) → retired (verifies tokens it signed
-- until they have all expired, then deleted). At most one next and one current at any time.
create table signing_key_generations (
  id text primary key,
  seed_ciphertext bytea not null,
  wrapping_key_id text not null,
  created_at timestamptz not null default now(),
  activated_at timestamptz,
  retired_at timestamptz,
  check (retired_at is null or activated_at is not null)
);
create unique index signing_key_generations_one_next on signing_key_generations ((true)) where activated_at is null;
create unique index signing_key_generations_one_current on signing_key_generations ((true)) where activated_at is not null and retired_at is null;
-- Every process holds the generations in memory; a rotation (or a re-encryption) by any of them reaches all.
create trigger signing_key_generations_changes after insert or update or delete on signing_key_generations
  for each row execute function latchkey_notify_change('signing-keys', 'id');

-- Which days each user was active (made a request signed in), and the country the request came from when
-- the edge told us (Cloudflare's cf-ipcountry, Vercel's x-vercel-ip-country): the figures of
-- `GET /internal/metrics` (daily active users, users by country). One row per user and day.
create table user_activity_days (
  project_id text not null references projects(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  day date not null,
  country_code text,
  primary key (user_id, day)
);
create index user_activity_days_project_day on user_activity_days (project_id, day);
