import { Link, Navigate, Outlet, createRootRoute, createRoute, createRouter, lazyRouteComponent, useMatch } from "@tanstack/react-router";
import { AuthUserButton, useUser } from "@latchkey/react";
import { HandlerPage } from "./pages/handler-page.js";
import { emailsSearch } from "./pages/project/emails/emails-search.js";
import { paymentsSearch } from "./pages/project/payments/payments-search.js";
import { ProjectLayout } from "./pages/project/project-layout.js";
import { ProjectsPage } from "./pages/projects-page.js";
import { SignInPage } from "./pages/sign-in-page.js";

/** Where the dashboard lives on the server; every route below is under it. */
export const DASHBOARD_BASE = "/dashboard";

function Layout() {
  const user = useUser();
  // A project's pages hold tables: they get a wider column than the projects list.
  const inProject = useMatch({ from: "/projects/$projectId", shouldThrow: false });
  return (
    <div className="dashboard">
      <header className="dashboard-header">
        <Link to="/" className="dashboard-brand">
          Latchkey dashboard
        </Link>
        {user ? <AuthUserButton showName /> : null}
      </header>
      <main className={inProject ? "dashboard-main dashboard-wide" : "dashboard-main"}>
        <Outlet />
      </main>
    </div>
  );
}

/**
 * Code-based routes (TanStack Router): `/` leads to the projects, `/sign-in` is the sign-in widget, and
 * `/handler/*` the widgets' own pages (sign-up, password reset, mailed links), which the app's urls point to.
 * The pages themselves send a signed-out person to sign-in and a signed-in one on to the projects.
 */
const rootRoute = createRootRoute({ component: Layout });
const indexRoute = createRoute({ getParentRoute: () => rootRoute, path: "/", component: () => <Navigate to="/projects" replace /> });
const signInRoute = createRoute({ getParentRoute: () => rootRoute, path: "/sign-in", component: SignInPage });
const projectsRoute = createRoute({ getParentRoute: () => rootRoute, path: "/projects", component: ProjectsPage });
const handlerRoute = createRoute({ getParentRoute: () => rootRoute, path: "/handler/$", component: HandlerPage });

/**
 * One project's pages, under its layout (name and section navigation). Each section is its own chunk, loaded
 * when first opened, so the first page's JavaScript stays small (the editor and the charts are in theirs).
 * `/projects/{id}/domains` is the address the server's fix links name (SPEC §2).
 */
const projectRoute = createRoute({ getParentRoute: () => rootRoute, path: "/projects/$projectId", component: ProjectLayout });
const projectPages = [
  createRoute({ getParentRoute: () => projectRoute, path: "/", component: lazyRouteComponent(() => import("./pages/project/overview-page.js"), "OverviewPage") }),
  createRoute({ getParentRoute: () => projectRoute, path: "get-started", component: lazyRouteComponent(() => import("./pages/project/get-started-page.js"), "GetStartedPage") }),
  createRoute({ getParentRoute: () => projectRoute, path: "users", component: lazyRouteComponent(() => import("./pages/project/users-page.js"), "UsersPage") }),
  createRoute({ getParentRoute: () => projectRoute, path: "users/$userId", component: lazyRouteComponent(() => import("./pages/project/user-page.js"), "UserPage") }),
  createRoute({ getParentRoute: () => projectRoute, path: "teams", component: lazyRouteComponent(() => import("./pages/project/teams-page.js"), "TeamsPage") }),
  createRoute({ getParentRoute: () => projectRoute, path: "teams/$teamId", component: lazyRouteComponent(() => import("./pages/project/team-page.js"), "TeamPage") }),
  createRoute({ getParentRoute: () => projectRoute, path: "permissions", component: lazyRouteComponent(() => import("./pages/project/permissions-page.js"), "PermissionsPage") }),
  createRoute({ getParentRoute: () => projectRoute, path: "authentication", component: lazyRouteComponent(() => import("./pages/project/authentication-page.js"), "AuthenticationPage") }),
  createRoute({ getParentRoute: () => projectRoute, path: "domains", component: lazyRouteComponent(() => import("./pages/project/domains-page.js"), "DomainsPage") }),
  createRoute({ getParentRoute: () => projectRoute, path: "emails", validateSearch: emailsSearch, component: lazyRouteComponent(() => import("./pages/project/emails-page.js"), "EmailsPage") }),
  createRoute({ getParentRoute: () => projectRoute, path: "payments", validateSearch: paymentsSearch, component: lazyRouteComponent(() => import("./pages/project/payments-page.js"), "PaymentsPage") }),
  createRoute({ getParentRoute: () => projectRoute, path: "data-vault", component: lazyRouteComponent(() => import("./pages/project/data-vault-page.js"), "DataVaultPage") }),
  createRoute({ getParentRoute: () => projectRoute, path: "config", component: lazyRouteComponent(() => import("./pages/project/config-page.js"), "ConfigPage") }),
  createRoute({ getParentRoute: () => projectRoute, path: "webhooks", component: lazyRouteComponent(() => import("./pages/project/webhooks-page.js"), "WebhooksPage") }),
  createRoute({ getParentRoute: () => projectRoute, path: "keys", component: lazyRouteComponent(() => import("./pages/project/keys-page.js"), "KeysPage") }),
  createRoute({ getParentRoute: () => projectRoute, path: "settings", component: lazyRouteComponent(() => import("./pages/project/settings-page.js"), "SettingsPage") }),
] as const;

export const router = createRouter({
  routeTree: rootRoute.addChildren([indexRoute, signInRoute, projectsRoute, projectRoute.addChildren(projectPages), handlerRoute]),
  basepath: DASHBOARD_BASE,
  defaultNotFoundComponent: () => (
    <section className="dashboard-card">
      <h1>Page not found</h1>
      <p>
        There is no dashboard page at this address. <Link to="/projects">Go to your projects</Link>.
      </p>
    </section>
  ),
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
