-- Cost as the data grows (issue 35, bench/scale.mjs): what a project of a million users needs to keep every
-- request path off sequential scans of its large tables.
--
-- Sign-in, sign-up and every lookup of a user by a sign-in address (services/auth-address.ts) match
-- lower(value) among the channels used for auth, case duplicates included (migration 0020's order picks among
-- them), which the unique index contact_channels_auth_value, partial on `not case_duplicate`, cannot serve: at a
-- million users each sign-in read every contact channel of its project (1.5 s). Not partial, so that the lookup
-- uses it whatever the form of its `used_for_auth` condition (a parameter in a generic plan included).
create index contact_channels_auth_lookup on contact_channels (project_id, type, lower(value));

-- User search (`GET /users?query=`) matches a substring of the display name, of an email or of the id,
-- case-insensitively (ILIKE '%…%'): only trigram indexes (pg_trgm) serve that. pg_trgm ships with PostgreSQL
-- (contrib) and is a trusted extension, which a database owner may create; where it cannot be created (a
-- PostgreSQL without contrib, embedded PGlite, which loads no extension it was not started with) the search
-- answers the same, reading the project's users instead.
-- An installed pg_trgm is used from whichever schema holds it.
do $$
declare
  ops text;
begin
  begin
    create extension if not exists pg_trgm;
  exception when others then
    raise notice 'pg_trgm is not available (%): user search reads without trigram indexes', sqlerrm;
  end;
  select format('%I.gin_trgm_ops', n.nspname) into ops
    from pg_opclass c join pg_namespace n on n.oid = c.opcnamespace join pg_am a on a.oid = c.opcmethod
    where c.opcname = 'gin_trgm_ops' and a.amname = 'gin' limit 1;
  if ops is not null then
    execute format('create index users_display_name_trgm on users using gin (display_name %s)', ops);
    execute format('create index users_id_text_trgm on users using gin ((id::text) %s)', ops);
    execute format('create index contact_channels_value_trgm on contact_channels using gin (value %s)', ops);
  end if;
end
$$;

-- Deleting a row checks the foreign keys that point at it: without an index on the referencing column that
-- check reads the whole referencing table. Deleting a team read every user (users.selected_team_id: 2.1 s at
-- a million users); deleting a user read every sent email; deleting a session (sign-out, revocation) read every
-- CLI sign-in attempt. Partial: most rows reference nothing.
create index users_selected_team on users (selected_team_id) where selected_team_id is not null;
create index sent_emails_user on sent_emails (user_id) where user_id is not null;
create index cli_auth_attempts_anonymous_session on cli_auth_attempts (anonymous_session_id) where anonymous_session_id is not null;

-- The planner's statistics of the new expression indexes.
analyze users;
analyze contact_channels;
