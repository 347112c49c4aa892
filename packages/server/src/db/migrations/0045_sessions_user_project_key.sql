-- A session belongs to a user of its project: one foreign key to the user's (id, project_id) says both, where two
-- (to projects, to users) each cost a sign-in an index lookup when its session is inserted (issue 35: ~0.05 ms of
-- PostgreSQL's ~1 ms per sign-in), and it also refuses a session whose project is not its user's. A project's
-- deletion still removes its sessions, through its users.
alter table users add constraint users_id_project_id_key unique (id, project_id);
alter table sessions
  drop constraint sessions_project_id_fkey,
  drop constraint sessions_user_id_fkey,
  add constraint sessions_user_project_fkey foreign key (user_id, project_id) references users (id, project_id) on delete cascade;
