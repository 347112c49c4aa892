import type { AdminProject, CurrentUser } from "@latchkey/core";
import { useApp, useUser } from "@latchkey/react";
import { useQuery } from "@tanstack/react-query";
import { Link, Navigate } from "@tanstack/react-router";
import { ownedProjectsKey } from "../queries.js";
import { CreateProjectForm } from "./create-project-form.js";

/** The Projects page: the signed-in owner's projects, and a form to create one. Signed out: to sign-in. */
export function ProjectsPage() {
  const user = useUser();
  if (user === undefined) return <p role="status">Loading…</p>;
  if (user === null) return <Navigate to="/sign-in" replace />;
  return <OwnedProjects user={user} />;
}

function OwnedProjects({ user }: { user: CurrentUser }) {
  const app = useApp();
  const projects = useQuery({ queryKey: ownedProjectsKey(user.id), queryFn: () => app.listOwnedProjects() });
  return (
    <>
      <h1 className="dashboard-title">Projects</h1>
      <section className="dashboard-card" aria-labelledby="your-projects">
        <h2 id="your-projects">Your projects</h2>
        {projects.isPending ? (
          <p role="status">Loading your projects…</p>
        ) : projects.isError ? (
          <p role="alert" className="dashboard-error">
            Could not load your projects: {projects.error.message}{" "}
            <button type="button" onClick={() => void projects.refetch()}>
              Try again
            </button>
          </p>
        ) : projects.data.length === 0 ? (
          <p>No projects yet. Create your first one below.</p>
        ) : (
          <ul className="dashboard-projects" aria-label="Your projects">
            {projects.data.map((project) => (
              <ProjectItem key={project.id} project={project} />
            ))}
          </ul>
        )}
      </section>
      {user.selectedTeamId ? (
        <CreateProjectForm userId={user.id} ownerTeamId={user.selectedTeamId} />
      ) : (
        <p className="dashboard-card">Select a team in the account menu to create projects for it.</p>
      )}
    </>
  );
}

function ProjectItem({ project }: { project: AdminProject }) {
  return (
    <li className="dashboard-project">
      <strong className="dashboard-project-name">
        <Link to="/projects/$projectId" params={{ projectId: project.id }}>
          {project.displayName}
        </Link>
      </strong>
      {project.description ? <span>{project.description}</span> : null}
      <span className="dashboard-muted">
        <code>{project.id}</code> · created {project.createdAt.toLocaleDateString()}
      </span>
    </li>
  );
}
