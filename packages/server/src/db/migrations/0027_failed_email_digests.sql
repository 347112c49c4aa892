-- The failed-emails digest (issue 19): each project's admins are told once about the sends that failed since
-- the digest before. `covered_until` is the end of the span the last digest reported; a digest locks the row,
-- so two server processes running it at once never report the same failures twice.
create table failed_email_digests (
  project_id text primary key references projects(id) on delete cascade,
  covered_until timestamptz not null
);
-- Finding the projects with failures since a moment, without reading every send.
create index sent_emails_failed on sent_emails (sent_at) where error is not null;

-- When a digest of all projects last ran (one row): the processes' daily timers claim the day with it.
create table failed_email_digest_runs (
  id boolean primary key default true check (id),
  last_run_at timestamptz not null
);
