import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { readEnv } from "../src/env.js";
import { NEW_PROJECT_CONFIG_OVERRIDE } from "../src/services/projects.js";
import { createTestProject, PRODUCTION, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";

// Issue 34, production guide, "Behind a reverse proxy with TLS" and "PostgreSQL: pool size per process": what the
// guide's settings do, seen from outside. The test plays the proxy: it connects from 127.0.0.1 and sends the
// X-Forwarded-* headers Caddy or nginx (deploy/) send.
const PUBLIC_URL = "https://auth.example.test";
const BEHIND_PROXY = { ...PRODUCTION, LATCHKEY_PUBLIC_URL: PUBLIC_URL, LATCHKEY_OAUTH_GITHUB_CLIENT_ID: "github-client", LATCHKEY_OAUTH_GITHUB_CLIENT_SECRET: "github-secret" };
// A browser's User-Agent: sessions record the address of browsers' requests only (as the reference's lists show it).
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const PROXY_HEADERS = { "x-forwarded-proto": "https", "x-forwarded-host": "auth.example.test", "user-agent": BROWSER };

let proxied: TestServer; // LATCHKEY_TRUSTED_PROXIES names the test's address
let direct: TestServer; // same database; the trusted proxy is some other machine
let project: TestProject;

beforeAll(async () => {
  proxied = await startTestServer({ ...BEHIND_PROXY, LATCHKEY_TRUSTED_PROXIES: "127.0.0.1,::1" });
  direct = await startTestServer({ ...BEHIND_PROXY, LATCHKEY_TRUSTED_PROXIES: "10.0.0.0/8" }, { sameDatabaseAs: proxied });
  project = await createTestProject(proxied, "Production", {
    configOverride: { ...NEW_PROJECT_CONFIG_OVERRIDE, "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true } },
  });
});
afterAll(async () => {
  await direct?.close();
  await proxied?.close();
});

/** Signs a new user up with a password through `server`, as a browser behind the proxy whose header says `forwardedFor`. */
async function signUpThrough(server: TestServer, forwardedFor: string): Promise<{ response: Response; userId: string }> {
  const response = await fetch(`${server.url}/api/v1/auth/password/sign-up`, {
    method: "POST",
    headers: { ...project.headers("client"), ...PROXY_HEADERS, "x-forwarded-for": forwardedFor, "content-type": "application/json" },
    body: JSON.stringify({ email: `proxy-${crypto.randomUUID()}@example.com`, password: "correct horse battery staple" }),
  });
  expect(response.status).toBe(200);
  return { response, userId: ((await response.json()) as { user_id: string }).user_id };
}

/** The address the server recorded for the user's only session. */
async function sessionIp(userId: string): Promise<string | undefined> {
  const response = await fetch(`${proxied.url}/api/v1/auth/sessions?user_id=${userId}`, { headers: project.headers("server") });
  const { items } = (await response.json()) as { items: { last_used_at_end_user_ip_info?: { ip: string } }[] };
  expect(items).toHaveLength(1);
  return items[0]!.last_used_at_end_user_ip_info?.ip;
}

describe("behind a TLS-terminating reverse proxy", () => {
  it("sends HSTS for a year on API answers and pages once LATCHKEY_PUBLIC_URL is https", async () => {
    const { response } = await signUpThrough(proxied, "203.0.113.7");
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    const health = await fetch(`${proxied.url}/health`, { headers: PROXY_HEADERS });
    expect(health.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });

  it("marks the cookie it sets Secure (the OAuth flow's browser binding)", async () => {
    const url = new URL(`${proxied.url}/api/v1/auth/oauth/authorize/github`);
    const params = {
      client_id: project.projectId,
      client_secret: project.publishableClientKey,
      redirect_uri: "https://app.example.test/handler/oauth-callback",
      scope: "legacy",
      state: randomBytes(24).toString("base64url"),
      grant_type: "authorization_code",
      code_challenge: createHash("sha256").update(randomBytes(32)).digest("base64url"),
      code_challenge_method: "S256",
      response_type: "code",
      type: "authenticate",
      error_redirect_url: "https://app.example.test/handler/error",
    };
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    const response = await fetch(url, { redirect: "manual", headers: { ...PROXY_HEADERS, "x-forwarded-for": "203.0.113.7" } });
    expect(response.status).toBe(307);
    // The provider is sent back to the public https URL, not to the address the proxy reached.
    expect(new URL(response.headers.get("location")!).searchParams.get("redirect_uri")).toBe(`${PUBLIC_URL}/api/v1/auth/oauth/callback/github`);
    const cookies = response.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(/^stack-oauth-inner-[0-9a-z]+=true; Path=\/; Expires=[^;]+ GMT; Max-Age=600; Secure; HttpOnly$/);
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });

  it("records the client's address from a trusted proxy's X-Forwarded-For, not one the client wrote before it", async () => {
    expect(await sessionIp((await signUpThrough(proxied, "203.0.113.7")).userId)).toBe("203.0.113.7");
    // nginx's $proxy_add_x_forwarded_for appends the peer to what the client sent: the rightmost entry is the proxy's.
    expect(await sessionIp((await signUpThrough(proxied, "198.51.100.1, 203.0.113.8")).userId)).toBe("203.0.113.8");
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", async () => {
    expect(await sessionIp((await signUpThrough(direct, "203.0.113.9")).userId)).toBe("127.0.0.1");
  });
});

describe.skipIf(process.env.LATCHKEY_TEST_DB !== "postgres")("PostgreSQL pool size per process", () => {
  it("opens at most LATCHKEY_DATABASE_POOL_SIZE connections, however many requests arrive", async () => {
    const adminUrl = process.env.LATCHKEY_TEST_DATABASE_URL!;
    const name = `latchkey_pool_${crypto.randomUUID().replaceAll("-", "")}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const { startServer } = await import("../src/server.js");
    const { createLogger } = await import("../src/log.js");
    const env = readEnv({ ...PRODUCTION, LATCHKEY_DATABASE_URL: url.toString(), LATCHKEY_DATABASE_POOL_SIZE: "3", LATCHKEY_METRICS_TOKEN: "m".repeat(20), LATCHKEY_PORT: "0", LATCHKEY_HOST: "127.0.0.1", LATCHKEY_LOG_LEVEL: "silent" });
    const server = await startServer(env, createLogger(env.logLevel));
    try {
      const own = await createTestProject({ ...server, env }, "Pool");
      const answers = await Promise.all(Array.from({ length: 40 }, () => fetch(`${server.url}/api/v1/users`, { headers: own.headers("server") })));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${"m".repeat(20)}` } })).text();
      expect(metrics).toMatch(/^latchkey_db_pool_max_connections 3$/m);
      expect(Number(/^latchkey_db_pool_connections (\d+)$/m.exec(metrics)![1])).toBeLessThanOrEqual(3);
      // What PostgreSQL sees: the pool's connections, plus the change feed's one LISTEN connection.
      const { rows } = await admin.query("select count(*)::int as n from pg_stat_activity where datname = $1", [name]);
      expect(rows[0].n).toBeLessThanOrEqual(4);
    } finally {
      await server.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });

  it("refuses a pool size that is not a positive whole number, naming the variable", () => {
    expect(() => readEnv({ LATCHKEY_DATABASE_POOL_SIZE: "0" })).toThrow("Invalid Latchkey configuration: LATCHKEY_DATABASE_POOL_SIZE: Too small: expected number to be >=1");
  });
});
