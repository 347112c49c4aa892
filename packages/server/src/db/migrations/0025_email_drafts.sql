-- Email drafts (issue 19): one-off mails an admin writes in TSX and sends to many users. Themes and templates
-- live in the project's config (emails.themes, emails.templates); drafts are many and change often, so they
-- have a table of their own, as in the protocol's reference.
create table email_drafts (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  display_name text not null check (char_length(display_name) between 1 and 256),
  tsx_source text not null,
  -- 'project_default': the project's selected theme; 'none': no theme; 'custom': theme_id.
  theme_mode text not null default 'project_default' check (theme_mode in ('project_default', 'none', 'custom')),
  theme_id uuid,
  -- When POST /emails/send-email sent it; null while it is a draft.
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((theme_mode = 'custom') = (theme_id is not null))
);
create index email_drafts_project on email_drafts (project_id, created_at, id);
