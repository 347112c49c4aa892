-- Every email a project sends, delivered over SMTP or kept in the dev outbox (issue 4).

create table sent_emails (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  user_id uuid references users(id) on delete set null,
  -- Which default template rendered it (null for mail not rendered from a template).
  template text,
  recipient text not null,
  subject text not null,
  -- Bodies (with live links and codes) are kept only for outbox mail, which has no other way to be read.
  html text,
  text text,
  -- The sender as the admin sees it in GET /internal/emails: the email config without its password.
  sender_config jsonb not null,
  -- 'smtp': handed to an SMTP server; 'outbox': no SMTP server configured, kept here for /dev/outbox.
  delivery text not null check (delivery in ('smtp', 'outbox')),
  -- The SMTP error text when delivery failed; null when it was accepted.
  error text,
  sent_at timestamptz not null default now()
);
create index sent_emails_project_sent on sent_emails (project_id, sent_at desc, id);
create index sent_emails_outbox on sent_emails (sent_at desc) where delivery = 'outbox';
