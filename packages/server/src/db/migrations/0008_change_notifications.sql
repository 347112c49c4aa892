-- Change notifications for the in-memory caches of the request pipeline (db/change-feed.ts).
-- Every committed change to a row that a cached value is built from sends `<kind>:<id>` on the channel
-- `latchkey_changes`; each server process listens and drops what it cached for that id. Triggers, not
-- application code, send them, so no write path (nor a cascade, nor a hand-run UPDATE) can forget to.
-- A table whose rows become part of a cached value (the user record, the project and its keys) needs a
-- trigger here too.

create function latchkey_notify_change() returns trigger language plpgsql as $$
declare
  row_data record;
begin
  if tg_op = 'DELETE' then row_data := old; else row_data := new; end if;
  perform pg_notify('latchkey_changes', tg_argv[0] || ':' || (to_jsonb(row_data) ->> tg_argv[1]));
  -- An update that moves a row to another owner invalidates the old owner too.
  if tg_op = 'UPDATE' and (to_jsonb(old) ->> tg_argv[1]) is distinct from (to_jsonb(new) ->> tg_argv[1]) then
    perform pg_notify('latchkey_changes', tg_argv[0] || ':' || (to_jsonb(old) ->> tg_argv[1]));
  end if;
  return null;
end
$$;

create trigger projects_changes after insert or update or delete on projects
  for each row execute function latchkey_notify_change('project', 'id');
create trigger api_key_sets_changes after insert or update or delete on api_key_sets
  for each row execute function latchkey_notify_change('project', 'project_id');
create trigger users_changes after insert or update or delete on users
  for each row execute function latchkey_notify_change('user', 'id');
create trigger contact_channels_changes after insert or update or delete on contact_channels
  for each row execute function latchkey_notify_change('user', 'user_id');
create trigger teams_changes after insert or update or delete on teams
  for each row execute function latchkey_notify_change('team', 'id');
-- Sessions are cached by refresh-token hash (the key a refresh presents), so that is what they announce.
create trigger sessions_changes after insert or update or delete on sessions
  for each row execute function latchkey_notify_change('session', 'refresh_token_hash');
