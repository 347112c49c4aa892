import { createClientApp } from "@latchkey/core";
import { AuthProvider } from "@latchkey/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { readDashboardConfig } from "./dashboard-config.js";
import { DASHBOARD_BASE, router } from "./router.js";
import "./dashboard.css";

const root = createRoot(document.getElementById("root")!);
const config = readDashboardConfig();

if (!config?.publishableClientKey) {
  root.render(
    <main className="dashboard-main">
      <section className="dashboard-card" role="alert">
        <h1>The dashboard cannot sign anyone in</h1>
        <p>
          {config
            ? "The internal project requires a publishable client key and this server has none to give the dashboard: set LATCHKEY_SEED_PUBLISHABLE_CLIENT_KEY and restart it."
            : "Open the dashboard from a Latchkey server, at /dashboard/."}
        </p>
      </section>
    </main>,
  );
} else {
  // One app of the internal project for the whole dashboard: the widgets and the pages share its session.
  const app = createClientApp({
    projectId: config.projectId,
    publishableClientKey: config.publishableClientKey,
    baseUrl: config.baseUrl,
    urls: {
      handler: `${DASHBOARD_BASE}/handler`,
      home: `${DASHBOARD_BASE}/`,
      signIn: `${DASHBOARD_BASE}/sign-in`,
      afterSignIn: `${DASHBOARD_BASE}/projects`,
      afterSignUp: `${DASHBOARD_BASE}/projects`,
      afterSignOut: `${DASHBOARD_BASE}/sign-in`,
    },
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1 } } });
  root.render(
    <StrictMode>
      <AuthProvider app={app}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AuthProvider>
    </StrictMode>,
  );
}
