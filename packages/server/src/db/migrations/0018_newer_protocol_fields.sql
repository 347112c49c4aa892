-- Fields the 2.8.108 protocol adds to projects and command-line logins (issue 14).

-- Admin project fields: logos for dark backgrounds, next to the two existing ones; whether the project was
-- created as a development environment (a label its creator sets, with no behaviour in Latchkey); and where
-- the project stands in the hosted dashboard's set-up wizard. Latchkey has no such wizard, so every project,
-- old or new, is `completed` unless an admin says otherwise.
alter table projects
  add column logo_dark_mode_url text,
  add column logo_full_dark_mode_url text,
  add column is_development_environment boolean not null default false,
  add column onboarding_status text not null default 'completed'
    check (onboarding_status in ('config_choice', 'apps_selection', 'auth_setup', 'domain_setup', 'email_theme_setup', 'payments_setup', 'welcome', 'completed'));

-- A command-line login started by a tool that was signed in anonymously (`anon_refresh_token`): the session it
-- was signed in with, so that the confirmation page's check can say so. The token itself is never stored.
alter table cli_auth_attempts add column anonymous_session_id uuid references sessions(id) on delete set null;
