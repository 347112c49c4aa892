-- Permission grants (issue 5, SPEC §3 "Permission"). The definitions themselves live in the project's
-- config (`rbac.permissions`, as in the protocol); only who holds what is stored here.

-- A team permission is held by a member of the team: leaving the team (or the team or user being
-- deleted, which removes the membership) removes the member's permissions with it.
create table team_member_permissions (
  project_id text not null references projects(id) on delete cascade,
  team_id uuid not null,
  user_id uuid not null,
  permission_id text not null,
  created_at timestamptz not null default now(),
  primary key (team_id, user_id, permission_id),
  foreign key (team_id, user_id) references team_members(team_id, user_id) on delete cascade
);
-- Listing a user's permissions across teams (`GET /team-permissions?user_id=…` without a team).
create index team_member_permissions_user on team_member_permissions (user_id);

create table project_user_permissions (
  project_id text not null references projects(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  permission_id text not null,
  created_at timestamptz not null default now(),
  primary key (user_id, permission_id)
);
-- Listing every holder in a project (`GET /project-permissions` without a user).
create index project_user_permissions_project on project_user_permissions (project_id);
