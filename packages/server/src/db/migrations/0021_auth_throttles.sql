-- Failed sign-in attempts, counted per account and per client address (services/auth-throttle.ts), in
-- the database so that every server process enforces the same limits.
create table auth_throttles (
  key text primary key,
  failures integer not null,
  last_failure_at timestamptz not null,
  blocked_until timestamptz not null
);
-- For the sweep of counters nobody has failed on for a while.
create index auth_throttles_last_failure on auth_throttles (last_failure_at);
