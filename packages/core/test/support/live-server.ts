import { afterAll, beforeAll } from "vitest";
import type { Clock } from "../../src/clock.js";
import { createAdminApp } from "../../src/apps/admin-app.js";
import { createClientApp, type ClientAppOptions } from "../../src/apps/client-app.js";
import { createServerApp } from "../../src/apps/server-app.js";
import { WELL_KNOWN_DEV_KEYS } from "../../../server/src/env.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "../../../server/test/support/test-server.js";

/**
 * A real Latchkey server started in-process for the file (PGlite), and apps of a fresh project on it. The
 * apps talk to it over a real socket with the platform fetch; nothing is mocked.
 */
export function useLiveServer(env: Record<string, string> = {}): { server: () => TestServer } {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(env);
  });
  afterAll(async () => {
    await server?.close();
  });
  return { server: () => server };
}

/** The page a browser user would be on; localhost is trusted by new projects, so callback links point here. */
export const APP_ORIGIN = "http://localhost:3000";

export interface Navigation {
  url: string;
  replace: boolean;
}

/** A client app of `project` with memory tokens and a recorded navigate function. */
export function clientAppFor(server: TestServer, project: TestProject, options: Partial<ClientAppOptions> & { page?: string; clock?: Clock } = {}) {
  const navigations: Navigation[] = [];
  let page = options.page ?? `${APP_ORIGIN}/handler/sign-in`;
  const app = createClientApp({
    projectId: project.projectId,
    publishableClientKey: project.publishableClientKey,
    baseUrl: server.url,
    tokenStore: "memory",
    currentUrl: () => page,
    navigate: (url, { replace }) => {
      navigations.push({ url, replace });
    },
    ...options,
  });
  return { app, navigations, goTo: (url: string) => (page = url) };
}

export function serverAppFor(server: TestServer, project: TestProject, tokenStore?: Parameters<typeof createServerApp>[0]["tokenStore"]) {
  return createServerApp({ projectId: project.projectId, secretServerKey: project.secretServerKey, baseUrl: server.url, tokenStore: tokenStore ?? "memory" });
}

export function adminAppFor(server: TestServer, project: TestProject) {
  return createAdminApp({ projectId: project.projectId, superSecretAdminKey: project.superSecretAdminKey, baseUrl: server.url, tokenStore: "memory" });
}

/** A client app of the dashboard's own project (`internal`), as the dashboard's sign-in widget makes it. */
export function dashboardAppFor(server: TestServer) {
  return createClientApp({
    projectId: "internal",
    publishableClientKey: WELL_KNOWN_DEV_KEYS.publishableClientKey,
    baseUrl: server.url,
    tokenStore: "memory",
    currentUrl: () => `${APP_ORIGIN}/dashboard/`,
    navigate: () => {},
  });
}

/** A new dashboard user (a project owner), signed up and in, with the personal team they get on sign-up. */
export async function signedUpOwner(server: TestServer) {
  const app = dashboardAppFor(server);
  await app.signUpWithCredential({ email: email(), password: PASSWORD, noRedirect: true });
  const user = await app.getUser();
  if (!user?.selectedTeamId) throw new Error("an internal-project user gets a personal team, selected, on sign-up");
  return { app, teamId: user.selectedTeamId };
}

export { createTestProject };
export const email = () => `user-${crypto.randomUUID()}@example.com`;
export const PASSWORD = "correct horse battery staple";
