-- Profile images (issue 13): images uploaded as `data:` URLs are kept here, outside the user, team and
-- membership rows, and served at `/api/v1/profile-images/{id}` (routes/profile-images.ts); the row keeps
-- that URL. An image is immutable (a new upload is a new row) and belongs to one owner: a user (user_id),
-- a team (team_id), or a member's profile in a team (both). The owner's foreign keys cascade, so deleting
-- a user, a team or a membership deletes its images in the same statement, and services/profile-images.ts
-- deletes an owner's earlier images when a new value replaces them: no image outlives its owner, and no
-- sweep is needed.
create table profile_images (
  id uuid primary key default gen_random_uuid(),
  project_id text not null references projects(id) on delete cascade,
  user_id uuid references users(id) on delete cascade,
  team_id uuid references teams(id) on delete cascade,
  content_type text not null check (content_type in ('image/png', 'image/jpeg', 'image/gif', 'image/bmp', 'image/webp')),
  bytes bytea not null,
  created_at timestamptz not null default now(),
  check (user_id is not null or team_id is not null),
  -- Checked only when both are set (MATCH SIMPLE): a member profile's image goes with the membership.
  foreign key (team_id, user_id) references team_members (team_id, user_id) on delete cascade
);
create index profile_images_user on profile_images (user_id);
create index profile_images_team_user on profile_images (team_id, user_id);
