import { describe, expect, it } from "vitest";
import { PASSWORD, adminAppFor, clientAppFor, createTestProject, email, serverAppFor, useLiveServer } from "./support/live-server.js";

/**
 * An admin app's metrics (`GET /internal/metrics`) against the real server: the figures of the dashboard's
 * Overview, camelCased. Requests from 127.0.0.1 are trusted as the edge, so a `cf-ipcountry` header sets the
 * country of a signed-in user's activity.
 */
const live = useLiveServer({ LATCHKEY_TRUSTED_PROXIES: "127.0.0.1" });
const today = () => new Date().toISOString().slice(0, 10);

describe("an admin app's metrics", () => {
  it("are all zeros and empty lists for a project without users", async () => {
    const project = await createTestProject(live.server());
    const metrics = await adminAppFor(live.server(), project).getMetrics();
    expect(metrics.totalUsers).toBe(0);
    expect(metrics.dailySignUps).toHaveLength(31);
    expect(metrics.dailySignUps.every((day) => day.count === 0)).toBe(true);
    expect(metrics.dailySignUps.at(-1)!.date).toBe(today());
    expect(metrics.dailyActiveUsers.every((day) => day.count === 0)).toBe(true);
    expect(metrics).toMatchObject({ usersByCountry: [], recentSignUps: [], recentlyActive: [], signInMethods: [] });
  });

  it("count sign-ups, active users by country, the newest users and their sign-in methods", async () => {
    const project = await createTestProject(live.server());
    const server = serverAppFor(live.server(), project);
    const ada = await server.createUser({ primaryEmail: email(), primaryEmailAuthEnabled: true, password: PASSWORD, displayName: "Ada" });
    const grace = await server.createUser({ displayName: "Grace" });

    // Ada signs in and makes a request through a German edge.
    const fromGermany: typeof fetch = (input, init) =>
      fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), "cf-ipcountry": "DE" } });
    const { app } = clientAppFor(live.server(), project, { fetch: fromGermany });
    await app.signInWithCredential({ email: ada.primaryEmail!, password: PASSWORD, noRedirect: true });
    await app.getUser();

    const metrics = await adminAppFor(live.server(), project).getMetrics();
    expect(metrics.totalUsers).toBe(2);
    expect(metrics.dailySignUps.at(-1)).toEqual({ date: today(), count: 2 });
    expect(metrics.dailyActiveUsers.at(-1)).toEqual({ date: today(), count: 1 });
    expect(metrics.usersByCountry).toEqual([{ country: "DE", count: 1 }]);
    expect(metrics.recentSignUps.map((user) => [user.id, user.displayName])).toEqual([
      [grace.id, "Grace"],
      [ada.id, "Ada"],
    ]);
    expect(metrics.recentSignUps[0]!.signedUpAt).toBeInstanceOf(Date);
    // Only Ada was given an access token (signing in); Grace, made by the server, was never active.
    expect(metrics.recentlyActive.map((user) => user.id)).toEqual([ada.id]);
    expect(metrics.signInMethods).toEqual([{ method: "password", count: 1 }]);
  });
});
