import { describe, expect, it } from "vitest";
import { api } from "../support/api.js";
import { createTestProject, type TestProject } from "../support/test-server.js";
import { as, email, server } from "../support/users-fixture.js";

// `GET /internal/metrics` (issue 13 §4), in the shapes the protocol's dashboard reads: 31 UTC days of
// sign-ups and active users, users by the country of their latest activity (cf-ipcountry, x-vercel-ip-country),
// the five newest and most recently active users, and the sign-in methods held. Anonymous users count only
// with include_anonymous=true.
describe("GET /internal/metrics", () => {
  const DAY_MS = 86_400_000;
  const utcDay = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

  async function signUp(project: TestProject): Promise<{ id: string; token: string }> {
    const response = await api(server.url, "/auth/password/sign-up", { headers: project.headers("client"), body: { email: `m-${crypto.randomUUID()}@example.com`, password: "correct horse" } });
    expect(response.status).toBe(200);
    return { id: response.body.user_id, token: response.body.access_token };
  }

  /** A request made signed in, from a country as the edge reports it. */
  async function activeFrom(project: TestProject, token: string, headers: Record<string, string> = {}, anonymous = false): Promise<void> {
    const allow: Record<string, string> = anonymous ? { "x-stack-allow-anonymous-user": "true" } : {};
    const response = await api(server.url, "/users/me", { headers: { ...project.headers("client"), "x-stack-access-token": token, ...allow, ...headers } });
    expect(response.status).toBe(200);
  }

  const metrics = (project: TestProject, query = "") => api(server.url, `/internal/metrics${query}`, { headers: project.headers("admin") });

  it("counts users, sign-ups and activity per day, countries, recent users and sign-in methods", async () => {
    const project = await createTestProject(server);
    const alice = await signUp(project);
    const bob = await signUp(project);
    const anonymous = await api(server.url, "/auth/anonymous/sign-up", { headers: project.headers("client"), body: {} });
    const dora = await api(server.url, "/users", {
      headers: project.headers("server"),
      body: { primary_email: `d-${crypto.randomUUID()}@example.com`, primary_email_auth_enabled: true, otp_auth_enabled: true },
    });
    expect(dora.status).toBe(201);

    await activeFrom(project, alice.token, { "cf-ipcountry": "DE" });
    await activeFrom(project, alice.token, { "cf-ipcountry": "DE" });
    await activeFrom(project, bob.token, { "x-vercel-ip-country": "us" });
    await activeFrom(project, anonymous.body.access_token, { "cf-ipcountry": "FR" }, true);
    // Dora signed up three days ago, and Alice was active yesterday from elsewhere: her latest country counts.
    await server.db.updateTable("users").set({ created_at: new Date(Date.now() - 3 * DAY_MS) } as never).where("id", "=", dora.body.id).execute();
    await server.db.insertInto("user_activity_days").values({ project_id: project.projectId, user_id: alice.id, day: utcDay(-1), country_code: "GB" }).execute();

    const response = await metrics(project);
    expect(response.status).toBe(200);
    const body = response.body;
    expect(Object.keys(body).sort()).toEqual(["daily_active_users", "daily_users", "login_methods", "recently_active", "recently_registered", "total_users", "users_by_country"]);
    expect(body.total_users).toBe(3);

    const expectedDays = Array.from({ length: 31 }, (_, i) => utcDay(i - 30));
    expect(body.daily_users.map((p: { date: string }) => p.date)).toEqual(expectedDays);
    expect(body.daily_active_users.map((p: { date: string }) => p.date)).toEqual(expectedDays);
    const activityOn = (series: { date: string; activity: number }[], offset: number) => series.find((p) => p.date === utcDay(offset))!.activity;
    expect(activityOn(body.daily_users, 0)).toBe(2);
    expect(activityOn(body.daily_users, -3)).toBe(1);
    expect(body.daily_users.reduce((n: number, p: { activity: number }) => n + p.activity, 0)).toBe(3);
    expect(activityOn(body.daily_active_users, 0)).toBe(2);
    expect(activityOn(body.daily_active_users, -1)).toBe(1);

    expect(body.users_by_country).toEqual({ DE: 1, US: 1 });
    expect(body.recently_registered.map((u: { id: string }) => u.id)).toEqual([bob.id, alice.id, dora.body.id]);
    expect(body.recently_registered[0]).toMatchObject({ id: bob.id, is_anonymous: false, has_password: true, last_active_at_millis: expect.any(Number) });
    // By their newest access token (Bob's sign-up came last); Dora was never given one, so she was never active.
    const active = body.recently_active as { id: string; last_active_at_millis: number }[];
    expect(active.map((u) => u.id)).toEqual([bob.id, alice.id]);
    expect(active.map((u) => u.last_active_at_millis)).toEqual([...active.map((u) => u.last_active_at_millis)].sort((a, b) => b - a));
    expect(body.login_methods).toEqual([
      { method: "password", count: 2 },
      { method: "otp", count: 1 },
    ]);
  });

  it("counts anonymous users only with include_anonymous=true", async () => {
    const project = await createTestProject(server);
    const alice = await signUp(project);
    await activeFrom(project, alice.token, { "cf-ipcountry": "DE" });
    const anonymous = await api(server.url, "/auth/anonymous/sign-up", { headers: project.headers("client"), body: {} });
    await activeFrom(project, anonymous.body.access_token, { "cf-ipcountry": "FR" }, true);

    const without = (await metrics(project)).body;
    const withAnonymous = (await metrics(project, "?include_anonymous=true")).body;
    expect([without.total_users, withAnonymous.total_users]).toEqual([1, 2]);
    expect([without.daily_users.at(-1).activity, withAnonymous.daily_users.at(-1).activity]).toEqual([1, 2]);
    expect([without.daily_active_users.at(-1).activity, withAnonymous.daily_active_users.at(-1).activity]).toEqual([1, 2]);
    expect(without.users_by_country).toEqual({ DE: 1 });
    expect(withAnonymous.users_by_country).toEqual({ DE: 1, FR: 1 });
    expect(without.recently_registered.map((u: { id: string }) => u.id)).toEqual([alice.id]);
    expect(withAnonymous.recently_registered.map((u: { id: string }) => u.id)).toEqual([anonymous.body.user_id, alice.id]);
    expect(withAnonymous.recently_active).toHaveLength(2);
  });

  it("leaves out countries the edge does not know, and shows at most five recent users", async () => {
    const project = await createTestProject(server);
    const users = [];
    for (let i = 0; i < 6; i++) users.push(await signUp(project));
    await activeFrom(project, users[0]!.token, { "cf-ipcountry": "XX" });
    await activeFrom(project, users[1]!.token, { "cf-ipcountry": "T1" });
    await activeFrom(project, users[2]!.token);
    const body = (await metrics(project)).body;
    expect(body.users_by_country).toEqual({});
    // Each sign-up gave its user an access token: all six were active today.
    expect(body.daily_active_users.at(-1).activity).toBe(6);
    expect(body.recently_registered.map((u: { id: string }) => u.id)).toEqual(users.slice(1).reverse().map((u) => u.id));
    expect(body.recently_active).toHaveLength(5);
  });

  it("is for admins, and refuses unknown query parameters", async () => {
    const project = await createTestProject(server);
    const client = await api(server.url, "/internal/metrics", { headers: project.headers("server") });
    expect(client.status).toBe(401);
    expect(client.body.code).toBe("INSUFFICIENT_ACCESS_TYPE");
    const extra = await metrics(project, "?extra=1");
    expect(extra.status).toBe(400);
    expect(extra.body.error).toBe("Request validation failed on GET /api/v1/internal/metrics:\n  - query contains unknown properties: extra");
  });
});
