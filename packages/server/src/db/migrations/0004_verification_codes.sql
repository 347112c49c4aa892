-- One-time codes for every purpose: email verification, password reset, magic link / OTP sign-in,
-- team and sign-in invitations (issue 4, SPEC §4 "Verification codes").

create table verification_codes (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  -- What the code is for; a code presented for another purpose does not exist.
  purpose text not null,
  -- 'otp': its first 6 characters are typed by hand, so wrong guesses are counted; 'link': only ever clicked.
  kind text not null check (kind in ('link', 'otp')),
  -- Codes are 45 characters: 6 (the OTP) + a 39-character nonce. The row is found by the nonce's hash and
  -- the whole code's hash must match too; neither the code nor the nonce is stored.
  nonce_hash bytea not null,
  code_hash bytea not null,
  -- What the flow needs when the code is used (user id, email, callback, …).
  data jsonb not null,
  -- The (lowercased) address the code was sent to, for per-email send throttling; null when not mailed.
  email text,
  attempts integer not null default 0,
  max_attempts integer not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create unique index verification_codes_nonce on verification_codes (project_id, nonce_hash);
create index verification_codes_send_throttle on verification_codes (project_id, purpose, email, created_at) where email is not null;
