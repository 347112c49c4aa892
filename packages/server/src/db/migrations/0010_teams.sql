-- Teams (issue 5): a user's selected team is always one of their teams.

-- Rows written before this rule held (none are expected) lose a selection they could not have made.
update users set selected_team_id = null
where selected_team_id is not null
  and not exists (select 1 from team_members m where m.team_id = users.selected_team_id and m.user_id = users.id);

-- The selection names a membership, so leaving the team (or being removed from it, or the team being
-- deleted) clears it in the same statement, and no write can select a team the user is not in.
alter table users add constraint users_selected_team_membership
  foreign key (selected_team_id, id) references team_members (team_id, user_id) on delete set null (selected_team_id);

-- A team's members in joining order (member profiles and `GET /users?team_id=` list them).
create index team_members_team_created on team_members (team_id, created_at, user_id);
