-- The failed-emails digest lists the last 24 hours' failures on every run, as the reference's does (issue 29 §5):
-- nothing remembers what an earlier digest reported.
drop table failed_email_digests;

-- When the user was last given an access token on that day (a sign-in or a refresh, services/token-activity.ts):
-- `recently_active` of `GET /internal/metrics` orders users by it, as the reference orders them by the activity it
-- records with every token. Null on a day known only from requests made with an older token.
alter table user_activity_days add column last_token_at timestamptz;
create index user_activity_days_tokens on user_activity_days (project_id, last_token_at) where last_token_at is not null;

-- Daily active users keep counting a user after its deletion (the reference's activity records outlive the user):
-- a deleted user's active days are folded into these per-day counts, and its own rows go with it.
create table deleted_user_activity_days (
  project_id text not null references projects(id) on delete cascade,
  day date not null,
  users integer not null,
  -- Of `users`, those anonymous when deleted: counted only with `include_anonymous=true`.
  anonymous_users integer not null,
  primary key (project_id, day)
);

create function latchkey_count_deleted_user_activity() returns trigger language plpgsql as $$
begin
  insert into deleted_user_activity_days as counted (project_id, day, users, anonymous_users)
    select a.project_id, a.day, 1, case when old.is_anonymous then 1 else 0 end
    from user_activity_days a
    -- A user deleted with its project (the cascade has removed the project row already): nothing to keep.
    where a.user_id = old.id and exists (select 1 from projects p where p.id = a.project_id)
  on conflict (project_id, day) do update
    set users = counted.users + excluded.users, anonymous_users = counted.anonymous_users + excluded.anonymous_users;
  return old;
end
$$;

create trigger users_count_deleted_activity before delete on users
  for each row execute function latchkey_count_deleted_user_activity();
