import { Link, Navigate, Outlet, createRootRoute, createRoute, createRouter } from "@tanstack/react-router";
import { AuthUserButton, useUser } from "@latchkey/react";
import { HandlerPage } from "./pages/handler-page.js";
import { ProjectsPage } from "./pages/projects-page.js";
import { SignInPage } from "./pages/sign-in-page.js";

/** Where the dashboard lives on the server; every route below is under it. */
export const DASHBOARD_BASE = "/dashboard";

function Layout() {
  const user = useUser();
  return (
    <div className="dashboard">
      <header className="dashboard-header">
        <Link to="/" className="dashboard-brand">
          Latchkey dashboard
        </Link>
        {user ? <AuthUserButton showName /> : null}
      </header>
      <main className="dashboard-main">
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

export const router = createRouter({
  routeTree: rootRoute.addChildren([indexRoute, signInRoute, projectsRoute, handlerRoute]),
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
