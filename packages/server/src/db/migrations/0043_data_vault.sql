-- Data vault (issue 33): per (project, store, hashed key) one value the app already encrypted with a secret
-- only it holds. Latchkey seals it a second time at rest (envelope encryption, crypto/vault-envelope.ts):
-- `sealed_value` is the app's text under a fresh per-row data key, and `wrapped_data_key` is that data key
-- wrapped by the key-encryption key named `kek_id` (derived from LATCHKEY_SERVER_SECRET, or a KMS key). Both
-- are bound to (project_id, store_id, hashed_key), so a row copied elsewhere does not open.
-- Stores themselves live in the project config (dataVault.stores); a deleted store's rows stay, unreadable
-- through the API, until a store of the same id exists again.
create table data_vault_entries (
  project_id text not null references projects(id) on delete cascade,
  store_id text not null,
  hashed_key text not null,
  kek_id text not null,
  wrapped_data_key bytea not null,
  sealed_value bytea not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (project_id, store_id, hashed_key)
);
-- `npm run rotate-vault-keys` finds the rows still wrapped by an older key-encryption key.
create index data_vault_entries_kek on data_vault_entries (kek_id);
