import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type ApiResponse } from "./support/api.js";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

// Issue 16 §3: the sessions list tells which browser and system each session is (the User-Agent, a Latchkey
// extension field), from which address, and the country when a trusted proxy reported it.
let server: TestServer;
let behindProxy: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  // The same database reached as if through the deployment's edge proxy: the test's own address is trusted.
  behindProxy = await startTestServer({ LATCHKEY_TRUSTED_PROXIES: "127.0.0.1, ::1" }, { sameDatabaseAs: server });
});
afterAll(async () => {
  await behindProxy?.close();
  await server?.close();
});

const MAC_CHROME = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const WINDOWS_FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

interface Tokens {
  access_token: string;
  refresh_token: string;
  user_id: string;
}

function signUp(project: TestProject, headers: Record<string, string> = {}, via = server): Promise<ApiResponse> {
  const email = `user-${crypto.randomUUID()}@example.com`;
  return api(via.url, "/auth/password/sign-up", { headers: { ...project.headers("client"), ...headers }, body: { email, password: "correct horse" } });
}
const refresh = (project: TestProject, tokens: Tokens, headers: Record<string, string> = {}, via = server) =>
  api(via.url, "/auth/sessions/current/refresh", { method: "POST", headers: { ...project.headers("client"), "x-stack-refresh-token": tokens.refresh_token, ...headers } });
async function listedSession(project: TestProject, tokens: Tokens): Promise<Record<string, any>> {
  const listed = await api(server.url, "/auth/sessions?user_id=me", { headers: { ...project.headers("client"), "x-stack-access-token": tokens.access_token } });
  expect(listed.status).toBe(200);
  const id = decodeJwt(tokens.access_token).refresh_token_id;
  return listed.body.items.find((item: { id: string }) => item.id === id);
}
const sessionRow = (tokens: Tokens) => server.db.selectFrom("sessions").selectAll().where("id", "=", decodeJwt(tokens.access_token).refresh_token_id as string).executeTakeFirstOrThrow();

/**
 * A refresh that records its use. Uses are written at most once a minute, so the last one is moved an hour
 * back first; the server may still hold the session in its cache until the database's change notification
 * reaches it, and then skips the write: tried again until the use is recorded.
 */
function recordedRefresh(project: TestProject, tokens: Tokens, headers: Record<string, string> = {}, via = server): Promise<void> {
  return recordedUse(tokens, () => refresh(project, tokens, headers, via));
}
async function recordedUse(tokens: Tokens, send: () => Promise<{ status: number }>): Promise<void> {
  const id = decodeJwt(tokens.access_token).refresh_token_id as string;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const backdated = new Date(Date.now() - 3_600_000);
    await server.db.updateTable("sessions").set({ last_used_at: backdated }).where("id", "=", id).execute();
    expect((await send()).status).toBe(200);
    const row = await server.db.selectFrom("sessions").select("last_used_at").where("id", "=", id).executeTakeFirstOrThrow();
    if (row.last_used_at.getTime() > backdated.getTime()) return;
    if (Date.now() > deadline) throw new Error("the refresh was never recorded");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the device of a session", () => {
  it("lists the User-Agent and address of the sign-in, and a refresh from another browser replaces them", async () => {
    const project = await createTestProject(server);
    const signedUp = await signUp(project, { "user-agent": MAC_CHROME });
    expect(signedUp.status).toBe(200);
    const tokens: Tokens = signedUp.body;

    const session = await listedSession(project, tokens);
    expect(session.last_used_at_user_agent).toBe(MAC_CHROME);
    expect(session.last_used_at_end_user_ip_info).toMatchObject({ ip: expect.stringMatching(/127\.0\.0\.1|::1/), countryCode: null });

    await recordedRefresh(project, tokens, { "user-agent": WINDOWS_FIREFOX });
    expect((await listedSession(project, tokens)).last_used_at_user_agent).toBe(WINDOWS_FIREFOX);
    // The one that made the session is kept apart.
    expect(await sessionRow(tokens)).toMatchObject({ created_user_agent: MAC_CHROME, last_used_user_agent: WINDOWS_FIREFOX });
  });

  it("also through the token endpoint's refresh grant, which the client library uses", async () => {
    const project = await createTestProject(server);
    const tokens: Tokens = (await signUp(project, { "user-agent": MAC_CHROME })).body;
    await recordedUse(tokens, () =>
      fetch(`${server.url}/api/v1/auth/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": WINDOWS_FIREFOX },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: project.projectId, client_secret: project.publishableClientKey }),
      }),
    );
    expect((await listedSession(project, tokens)).last_used_at_user_agent).toBe(WINDOWS_FIREFOX);
  });

  it("cuts a User-Agent longer than 512 characters, and leaves the field out when there is none", async () => {
    const project = await createTestProject(server);
    const long = `${MAC_CHROME} ${"x".repeat(600)}`;
    const tokens: Tokens = (await signUp(project, { "user-agent": long })).body;
    expect((await listedSession(project, tokens)).last_used_at_user_agent).toBe(long.slice(0, 512));

    // A server making a session speaks for itself, not for the user's device: nothing until its first refresh.
    const created = await api(server.url, "/auth/sessions", { headers: { ...project.headers("server"), "user-agent": "my-backend/1.0" }, body: { user_id: tokens.user_id } });
    expect(created.status).toBe(200);
    const serverMade = { ...created.body, user_id: tokens.user_id } as Tokens;
    expect(Object.keys(await listedSession(project, serverMade))).not.toContain("last_used_at_user_agent");
    await recordedRefresh(project, serverMade, { "user-agent": WINDOWS_FIREFOX });
    expect((await listedSession(project, serverMade)).last_used_at_user_agent).toBe(WINDOWS_FIREFOX);

    // A refresh naming no browser keeps the one known.
    await recordedRefresh(project, tokens, { "user-agent": "" });
    expect((await listedSession(project, tokens)).last_used_at_user_agent).toBe(long.slice(0, 512));
  });

  it("lists the address only for sessions used by a browser (a User-Agent with Mozilla, Chrome or Safari), as the reference does", async () => {
    const project = await createTestProject(server);
    for (const userAgent of ["node", "curl/8.5.0", "my-backend/1.0", ""]) {
      const tokens: Tokens = (await signUp(project, { "user-agent": userAgent })).body;
      expect(Object.keys(await listedSession(project, tokens)), userAgent).not.toContain("last_used_at_end_user_ip_info");
    }
    for (const userAgent of [WINDOWS_FIREFOX, "Mozilla/5.0", "Chrome/131.0", "MobileSafari/8614 CFNetwork/1474 Darwin/23.0.0"]) {
      const tokens: Tokens = (await signUp(project, { "user-agent": userAgent })).body;
      expect((await listedSession(project, tokens)).last_used_at_end_user_ip_info, userAgent).toMatchObject({ ip: expect.stringMatching(/127\.0\.0\.1|::1/) });
    }

    // Signed in by a script: no address until a browser uses the session; a script's use after it keeps the browser's.
    const proxied: Tokens = (await signUp(project, { "user-agent": "node", "x-forwarded-for": "203.0.113.9" }, behindProxy)).body;
    expect(await listedSession(project, proxied)).not.toHaveProperty("last_used_at_end_user_ip_info");
    await recordedRefresh(project, proxied, { "user-agent": MAC_CHROME, "x-forwarded-for": "198.51.100.4" }, behindProxy);
    expect((await listedSession(project, proxied)).last_used_at_end_user_ip_info).toEqual({
      ip: "198.51.100.4",
      countryCode: null,
      regionCode: null,
      cityName: null,
      latitude: null,
      longitude: null,
      tzIdentifier: null,
    });
    await recordedRefresh(project, proxied, { "user-agent": "node", "x-forwarded-for": "192.0.2.1" }, behindProxy);
    expect((await listedSession(project, proxied)).last_used_at_end_user_ip_info).toMatchObject({ ip: "198.51.100.4" });
  });

  it("is sent to clients of both protocol versions", async () => {
    const project = await createTestProject(server);
    const tokens: Tokens = (await signUp(project, { "user-agent": MAC_CHROME })).body;
    const hexclave = Object.fromEntries(Object.entries(project.headers("client")).map(([name, value]) => [name.replace(/^x-stack-/, "x-hexclave-"), value]));
    const listed = await api(server.url, "/auth/sessions?user_id=me", { headers: { ...hexclave, "x-hexclave-access-token": tokens.access_token } });
    expect(listed.status).toBe(200);
    expect(listed.body.items[0].last_used_at_user_agent).toBe(MAC_CHROME);
  });
});

describe("the country of a session", () => {
  it("is believed from cf-ipcountry only when the request came through a trusted proxy", async () => {
    const project = await createTestProject(server);
    const browser = { "user-agent": WINDOWS_FIREFOX };
    // Straight from the client: anyone can write the header.
    const direct: Tokens = (await signUp(project, { ...browser, "cf-ipcountry": "FR" })).body;
    expect((await listedSession(project, direct)).last_used_at_end_user_ip_info.countryCode).toBeNull();
    await recordedRefresh(project, direct, { ...browser, "cf-ipcountry": "FR" });
    expect((await listedSession(project, direct)).last_used_at_end_user_ip_info.countryCode).toBeNull();

    // Through the proxy: its country, and the client's address from X-Forwarded-For.
    const proxied: Tokens = (await signUp(project, { ...browser, "cf-ipcountry": "de", "x-forwarded-for": "203.0.113.9" }, behindProxy)).body;
    expect((await listedSession(project, proxied)).last_used_at_end_user_ip_info).toMatchObject({ ip: "203.0.113.9", countryCode: "DE" });

    // The country goes with the address: a later use from elsewhere with no country forgets it.
    await recordedRefresh(project, proxied, { ...browser, "x-forwarded-for": "198.51.100.4" }, behindProxy);
    expect((await listedSession(project, proxied)).last_used_at_end_user_ip_info).toMatchObject({ ip: "198.51.100.4", countryCode: null });
    // Cloudflare's XX (unknown) names no country.
    await recordedRefresh(project, proxied, { ...browser, "x-forwarded-for": "198.51.100.4", "cf-ipcountry": "XX" }, behindProxy);
    expect((await listedSession(project, proxied)).last_used_at_end_user_ip_info.countryCode).toBeNull();
    await recordedRefresh(project, proxied, { ...browser, "x-forwarded-for": "198.51.100.4", "cf-ipcountry": "JP" }, behindProxy);
    expect((await listedSession(project, proxied)).last_used_at_end_user_ip_info).toMatchObject({ ip: "198.51.100.4", countryCode: "JP" });
  });
});

describe("the country of a day's activity (/internal/metrics)", () => {
  it("is counted from cf-ipcountry only when the request came through a trusted proxy", async () => {
    const project = await createTestProject(server);
    const direct: Tokens = (await signUp(project)).body;
    const proxied: Tokens = (await signUp(project)).body;
    const me = (tokens: Tokens, headers: Record<string, string>, via: TestServer) =>
      api(via.url, "/users/me", { headers: { ...project.headers("client"), "x-stack-access-token": tokens.access_token, ...headers } });
    expect((await me(direct, { "cf-ipcountry": "FR" }, server)).status).toBe(200);
    expect((await me(proxied, { "cf-ipcountry": "DE", "x-forwarded-for": "203.0.113.9" }, behindProxy)).status).toBe(200);
    const metrics = await api(server.url, "/internal/metrics", { headers: project.headers("admin") });
    expect(metrics.status).toBe(200);
    expect(metrics.body.users_by_country).toEqual({ DE: 1 });
  });
});
