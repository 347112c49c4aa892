-- A new session announces nothing (migration 0008 announced every change): no cache can hold a session before
-- it exists (caches keep only rows they found), so the notification only cost every server process a message
-- per sign-in. Updates (a use recorded, an expiry) and deletions (a sign-out) still drop the cached session.
drop trigger sessions_changes on sessions;
create trigger sessions_changes after update or delete on sessions
  for each row execute function latchkey_notify_change('session', 'refresh_token_hash');
