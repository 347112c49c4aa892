-- Restricted users and sign-up risk data (issue 14, the 2.8.108 protocol's user fields). Whether a user is
-- restricted is not stored: it follows from being anonymous, from `restricted_by_admin`, and from the
-- project's `onboarding.requireEmailVerification` with the primary email's verification
-- (services/user-restrictions.ts), so verifying an email or changing the setting needs no write here.
alter table users
  add column restricted_by_admin boolean not null default false,
  -- Shown to the user.
  add column restricted_by_admin_reason text,
  -- Seen by servers and admins only.
  add column restricted_by_admin_private_details text,
  -- ISO 3166-1 alpha-2, uppercase.
  add column country_code text check (country_code ~ '^[A-Z]{2}$'),
  add column risk_score_bot smallint not null default 0 check (risk_score_bot between 0 and 100),
  add column risk_score_free_trial_abuse smallint not null default 0 check (risk_score_free_trial_abuse between 0 and 100),
  -- The protocol's rule: a reason or details only while restricted by an administrator.
  add constraint users_restriction_details check (
    restricted_by_admin or (restricted_by_admin_reason is null and restricted_by_admin_private_details is null)
  );

-- `GET /users?order_by=last_active_at`, paginated on (last_active_at, id) like the sign-up order.
create index users_project_last_active on users (project_id, last_active_at, id);
