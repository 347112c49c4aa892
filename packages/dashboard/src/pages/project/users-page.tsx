import { useProjectId } from "../../project-admin.js";
import { CreateUserForm } from "./users/create-user-form.js";
import { UsersTable } from "./users/users-table.js";
import "./users/users.css";

/** The project's Users page: every user, searchable and paged by the server, and a form to create one. */
export function UsersPage() {
  const projectId = useProjectId();
  return (
    <>
      <section className="dashboard-card" aria-labelledby="users-title">
        <h2 id="users-title">Users</h2>
        <UsersTable projectId={projectId} />
      </section>
      <CreateUserForm projectId={projectId} />
    </>
  );
}
