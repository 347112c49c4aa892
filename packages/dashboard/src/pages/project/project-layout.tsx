import { useUser } from "@latchkey/react";
import { useQuery } from "@tanstack/react-query";
import { Link, Navigate, Outlet } from "@tanstack/react-router";
import { adminProjectKey, useProjectAdmin, useProjectId } from "../../project-admin.js";

/** The project's sections, in the order of the navigation; each is a lazily loaded page (router.tsx). */
const SECTIONS = [
  { to: "/projects/$projectId/get-started", label: "Get started" },
  { to: "/projects/$projectId", label: "Overview", exact: true },
  { to: "/projects/$projectId/users", label: "Users" },
  { to: "/projects/$projectId/teams", label: "Teams" },
  { to: "/projects/$projectId/permissions", label: "Permissions" },
  { to: "/projects/$projectId/authentication", label: "Authentication" },
  { to: "/projects/$projectId/domains", label: "Domains" },
  { to: "/projects/$projectId/emails", label: "Emails" },
  { to: "/projects/$projectId/payments", label: "Payments" },
  { to: "/projects/$projectId/data-vault", label: "Data vault" },
  { to: "/projects/$projectId/webhooks", label: "Webhooks" },
  { to: "/projects/$projectId/keys", label: "Keys" },
  { to: "/projects/$projectId/config", label: "Config" },
  { to: "/projects/$projectId/settings", label: "Settings" },
] as const;

/**
 * Every page of one project: its name, the section navigation, and the section. Signed out: to sign-in. A
 * project the owner cannot administer (another's, or deleted) says so instead of the sections.
 */
export function ProjectLayout() {
  const user = useUser();
  if (user === undefined) return <p role="status">Loading…</p>;
  if (user === null) return <Navigate to="/sign-in" replace />;
  return <OwnedProject />;
}

function OwnedProject() {
  const projectId = useProjectId();
  const admin = useProjectAdmin(projectId);
  const project = useQuery({ queryKey: adminProjectKey(projectId), queryFn: () => admin.getAdminProject() });
  const name = project.data?.displayName ?? (project.isPending ? "Loading project…" : "Project");
  return (
    <>
      {/* Where the owner is, by the project's name (its id is in Get started's .env block). */}
      <nav aria-label="Breadcrumb">
        <p className="dashboard-muted">
          <Link to="/projects">Projects</Link> / <span aria-current="page">{name}</span>
        </p>
      </nav>
      <h1 className="dashboard-title">{name}</h1>
      {project.isError ? (
        <p role="alert" className="dashboard-card dashboard-error">
          Could not open this project: {project.error.message}. <Link to="/projects">Back to your projects</Link>
        </p>
      ) : (
        <>
          <nav className="dashboard-project-nav" aria-label="Project">
            <ul>
              {SECTIONS.map((section) => (
                <li key={section.to}>
                  <Link to={section.to} params={{ projectId }} activeOptions={{ exact: "exact" in section }}>
                    {section.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <Outlet />
        </>
      )}
    </>
  );
}
