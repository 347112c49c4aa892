import { describe, expect, it } from "vitest";
import { api } from "../support/api.js";
import { createTestProject, type TestProject } from "../support/test-server.js";
import { server } from "../support/users-fixture.js";

// Issue 29 §5: the activity behind `GET /internal/metrics` as the reference records it, with every access token given
// (sign-up, sign-in, refresh): `recently_active` follows the newest token, the country is the latest activity's, and
// daily active users keep counting users deleted since.
describe("GET /internal/metrics: activity", () => {
  const DAY_MS = 86_400_000;
  const utcDay = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

  type Tokens = { id: string; access_token: string; refresh_token: string };
  const credentials = new Map<string, string>();

  async function signUp(project: TestProject, headers: Record<string, string> = {}): Promise<Tokens> {
    const email = `a-${crypto.randomUUID()}@example.com`;
    const response = await api(server.url, "/auth/password/sign-up", { headers: { ...project.headers("client"), ...headers }, body: { email, password: "correct horse" } });
    expect(response.status).toBe(200);
    credentials.set(response.body.user_id, email);
    return { id: response.body.user_id, access_token: response.body.access_token, refresh_token: response.body.refresh_token };
  }
  async function signIn(project: TestProject, user: Tokens, headers: Record<string, string> = {}): Promise<void> {
    const body = { email: credentials.get(user.id), password: "correct horse" };
    expect((await api(server.url, "/auth/password/sign-in", { headers: { ...project.headers("client"), ...headers }, body })).status).toBe(200);
  }
  async function refresh(project: TestProject, user: Tokens, headers: Record<string, string> = {}): Promise<void> {
    const response = await api(server.url, "/auth/sessions/current/refresh", {
      method: "POST",
      headers: { ...project.headers("client"), "x-stack-refresh-token": user.refresh_token, ...headers },
    });
    expect(response.status).toBe(200);
  }
  const metrics = async (project: TestProject, query = "") => {
    const response = await api(server.url, `/internal/metrics${query}`, { headers: project.headers("admin") });
    expect(response.status).toBe(200);
    return response.body;
  };
  const recentlyActive = async (project: TestProject) => (await metrics(project)).recently_active.map((u: { id: string }) => u.id);

  it("orders recently_active by the newest access token: a sign-up, a sign-in or a refresh moves a user first", async () => {
    const project = await createTestProject(server);
    const [a, b, c] = [await signUp(project), await signUp(project), await signUp(project)];
    const made = await api(server.url, "/users", { headers: project.headers("server"), body: { display_name: "Never signed in" } });
    expect(made.status).toBe(201);
    expect(await recentlyActive(project)).toEqual([c.id, b.id, a.id]);

    await signIn(project, a);
    expect(await recentlyActive(project)).toEqual([a.id, c.id, b.id]);
    await refresh(project, b);
    expect(await recentlyActive(project)).toEqual([b.id, a.id, c.id]);
    // A request with a token given before is not a new token.
    expect((await api(server.url, "/users/me", { headers: { ...project.headers("client"), "x-stack-access-token": c.access_token } })).status).toBe(200);
    expect(await recentlyActive(project)).toEqual([b.id, a.id, c.id]);

    const [e, f, g] = [await signUp(project), await signUp(project), await signUp(project)];
    const body = await metrics(project);
    expect(body.recently_active.map((u: { id: string }) => u.id)).toEqual([g.id, f.id, e.id, b.id, a.id]);
    // Each shows a last activity no older than its last token.
    const shown = body.recently_active.map((u: { last_active_at_millis: number }) => u.last_active_at_millis);
    expect(shown).toEqual([...shown].sort((x: number, y: number) => y - x));
  });

  it("counts a session a server makes for a user, but not an admin acting as the user", async () => {
    const project = await createTestProject(server);
    const made = await api(server.url, "/users", { headers: project.headers("server"), body: {} });
    const session = (is_impersonation: boolean) =>
      api(server.url, "/auth/sessions", { headers: project.headers("server"), body: { user_id: made.body.id, expires_in_millis: 60_000, is_impersonation } });
    expect((await session(true)).status).toBe(200);
    expect(await recentlyActive(project)).toEqual([]);
    expect((await session(false)).status).toBe(200);
    expect(await recentlyActive(project)).toEqual([made.body.id]);
  });

  it("takes each user's country from its latest activity, the sign-up, sign-in and refresh requests included", async () => {
    const project = await createTestProject(server);
    const ada = await signUp(project, { "cf-ipcountry": "DE" });
    expect((await metrics(project)).users_by_country).toEqual({ DE: 1 });
    await signIn(project, ada, { "cf-ipcountry": "FR" });
    expect((await metrics(project)).users_by_country).toEqual({ FR: 1 });
    await refresh(project, ada, { "x-vercel-ip-country": "jp" });
    expect((await metrics(project)).users_by_country).toEqual({ JP: 1 });
    // A token given without a country leaves the latest known one.
    await refresh(project, ada);
    expect((await metrics(project)).users_by_country).toEqual({ JP: 1 });
  });

  it("keeps counting deleted users as active on their days, without keeping their rows", async () => {
    const project = await createTestProject(server);
    const kept = await signUp(project);
    const gone = await signUp(project);
    const anonymous = await api(server.url, "/auth/anonymous/sign-up", { headers: project.headers("client"), body: {} });
    expect(anonymous.status).toBe(200);
    // Gone was active yesterday too.
    await server.db.insertInto("user_activity_days").values({ project_id: project.projectId, user_id: gone.id, day: utcDay(-1), country_code: "GB" }).execute();
    const before = await metrics(project, "?include_anonymous=true");
    expect([before.daily_active_users.at(-2).activity, before.daily_active_users.at(-1).activity]).toEqual([1, 3]);

    for (const id of [gone.id, anonymous.body.user_id]) {
      expect((await api(server.url, `/users/${id}`, { method: "DELETE", headers: project.headers("server") })).status).toBe(200);
    }
    // One more, deleted straight after signing up (its token not yet written when the deletion came).
    const brief = await signUp(project);
    expect((await api(server.url, `/users/${brief.id}`, { method: "DELETE", headers: project.headers("server") })).status).toBe(200);
    const after = await metrics(project);
    expect(after.total_users).toBe(1);
    expect([after.daily_active_users.at(-2).activity, after.daily_active_users.at(-1).activity]).toEqual([1, 3]);
    const withAnonymous = await metrics(project, "?include_anonymous=true");
    expect([withAnonymous.daily_active_users.at(-2).activity, withAnonymous.daily_active_users.at(-1).activity]).toEqual([1, 4]);
    // Only the living are listed, and only their activity rows are kept.
    expect(after.recently_active.map((u: { id: string }) => u.id)).toEqual([kept.id]);
    expect(after.users_by_country).toEqual({});
    const rows = await server.db.selectFrom("user_activity_days").select("user_id").distinct().where("project_id", "=", project.projectId).execute();
    expect(rows.map((row) => row.user_id)).toEqual([kept.id]);
  });

  it("lets a project with active users be deleted, with its counts", async () => {
    const project = await createTestProject(server);
    const user = await signUp(project);
    expect((await api(server.url, `/users/${user.id}`, { method: "DELETE", headers: project.headers("server") })).status).toBe(200);
    await signUp(project);
    expect((await metrics(project)).daily_active_users.at(-1).activity).toBe(2);
    const deleted = await api(server.url, "/internal/projects/current", { method: "DELETE", headers: project.headers("admin") });
    expect(deleted.status).toBe(200);
    const left = await server.db.selectFrom("deleted_user_activity_days").selectAll().where("project_id", "=", project.projectId).execute();
    expect(left).toEqual([]);
  });
});
