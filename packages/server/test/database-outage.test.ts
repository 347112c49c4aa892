import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEnv, WELL_KNOWN_DEV_KEYS } from "../src/env.js";
import { createLogger } from "../src/log.js";
import { startServer, type RunningServer } from "../src/server.js";
import { api, type ApiResponse } from "./support/api.js";
import { sql } from "kysely";
import { connectDatabase } from "../src/db/connect.js";
import { freePort } from "./support/ports.js";
import { startPostgresProxy, type PostgresProxy } from "./support/postgres-proxy.js";
import { startTestServer, type TestServer } from "./support/test-server.js";
import { createPrivatePostgres, privatePostgresAvailable, type PrivatePostgres } from "./support/private-postgres.js";

// Issue 17: with PostgreSQL stopped, requests must answer 503 with a clear body instead of hanging, write
// nothing half, and the server must recover by itself once the database is back. A database of the test's
// own, since stopping the suite's shared one would fail every other test.
const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";
const clientHeaders = { "x-stack-project-id": "internal", "x-stack-access-type": "client", "x-stack-publishable-client-key": WELL_KNOWN_DEV_KEYS.publishableClientKey };
const serverHeaders = { "x-stack-project-id": "internal", "x-stack-access-type": "server", "x-stack-secret-server-key": WELL_KNOWN_DEV_KEYS.secretServerKey };

describe.skipIf(!onPostgres || !privatePostgresAvailable())("a database outage", () => {
  let postgres: PrivatePostgres;
  let server: RunningServer;
  beforeAll(async () => {
    postgres = createPrivatePostgres(25_000 + Math.floor(Math.random() * 5000));
    const env = readEnv({ LATCHKEY_DATABASE_URL: postgres.url, LATCHKEY_PORT: "0", LATCHKEY_HOST: "127.0.0.1", LATCHKEY_LOG_LEVEL: "silent" });
    server = await startServer(env, createLogger(env.logLevel));
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    postgres?.remove();
  });

  const signUp = (email: string) => api(server.url, "/auth/password/sign-up", { access: "client", body: { email, password: "correct horse battery" } });
  const me = (token: string) => api(server.url, "/users/me", { access: "client", headers: { "x-stack-access-token": token } });
  const listUsers = () => api(server.url, "/users", { access: "server" });

  it("answers 503 during it, keeps no half-written data, and recovers without a restart", async () => {
    const before = await signUp(`before-${crypto.randomUUID()}@example.com`);
    expect(before.status).toBe(200);
    expect((await me(before.body.access_token)).status).toBe(200);

    postgres.stop();
    const during: Array<[string, RequestInit]> = [
      ["/users/me", { headers: { ...clientHeaders, "x-stack-access-token": before.body.access_token } }],
      ["/auth/password/sign-up", { method: "POST", headers: { ...clientHeaders, "content-type": "application/json" }, body: JSON.stringify({ email: `during-${crypto.randomUUID()}@example.com`, password: "correct horse battery" }) }],
      ["/users", { headers: serverHeaders }],
    ];
    for (const [path, init] of during) {
      const started = Date.now();
      const response = await fetch(server.url + "/api/v1" + path, init);
      const answer = { status: response.status, text: await response.text(), headers: response.headers };
      expect(answer.status, answer.text).toBe(503);
      expect(answer.text).toBe("The database is unavailable. Please try again in a moment.");
      expect(answer.headers.get("retry-after")).toBe("5");
      // Not hanging: far less than a client's timeout, however loaded the machine.
      expect(Date.now() - started).toBeLessThan(10_000);
    }

    postgres.start();
    const deadline = Date.now() + 60_000;
    let after: ApiResponse | undefined;
    while (Date.now() < deadline) {
      const response = await fetch(server.url + "/api/v1/users", { headers: serverHeaders });
      if (response.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    after = await listUsers();
    expect(after!.status).toBe(200);
    const emails = after!.body.items.map((user: { primary_email: string }) => user.primary_email);
    expect(emails.some((address: string) => address.startsWith("before-"))).toBe(true);
    expect(emails.some((address: string) => address.startsWith("during-"))).toBe(false);
    expect((await me(before.body.access_token)).status).toBe(200);
    expect((await signUp(`after-${crypto.randomUUID()}@example.com`)).status).toBe(200);
  }, 180_000);
});

// Issue 30: an administrator closing the database (`ALTER DATABASE … ALLOW_CONNECTIONS false`) and terminating its
// backends answered 13 requests 500 without Retry-After: a refused new connection (55000) was not counted as the
// database being unavailable. Every connection failure is the outage's 503, whatever PostgreSQL's code.
describe.skipIf(!onPostgres || !privatePostgresAvailable())("a database refusing connections", () => {
  let postgres: PrivatePostgres;
  let server: RunningServer;
  let admin: pg.Client;
  beforeAll(async () => {
    postgres = createPrivatePostgres(await freePort());
    admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query("CREATE DATABASE refusing");
    const env = readEnv({ LATCHKEY_DATABASE_URL: postgres.url.replace(/\/postgres$/, "/refusing"), LATCHKEY_PORT: "0", LATCHKEY_HOST: "127.0.0.1", LATCHKEY_LOG_LEVEL: "silent" });
    server = await startServer(env, createLogger(env.logLevel));
  }, 120_000);
  afterAll(async () => {
    await admin?.query("ALTER DATABASE refusing ALLOW_CONNECTIONS true").catch(() => {});
    await server?.close();
    await admin?.end();
    postgres?.remove();
  });

  const me = (token: string) => api(server.url, "/users/me", { access: "client", headers: { "x-stack-access-token": token } });
  const listUsers = () => api(server.url, "/users", { access: "server" });
  const signUpRequest = (email: string): [string, RequestInit] => [
    "/auth/password/sign-up",
    { method: "POST", headers: { ...clientHeaders, "content-type": "application/json" }, body: JSON.stringify({ email, password: "correct horse battery" }) },
  ];
  const call = async ([path, init]: [string, RequestInit]) => {
    const response = await fetch(server.url + "/api/v1" + path, init);
    return { path, status: response.status, text: await response.text(), retryAfter: response.headers.get("retry-after") };
  };
  const unavailable = (path: string) => ({ path, status: 503, text: "The database is unavailable. Please try again in a moment.", retryAfter: "5" });
  const backendsOf = async (waiting: boolean) =>
    (await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'refusing'${waiting ? " AND wait_event_type = 'Lock'" : ""}`)).rows[0].n as number;

  it("answers requests in flight and new ones 503 with Retry-After, and serves again once connections are allowed", async () => {
    const before = await call(signUpRequest(`before-${crypto.randomUUID()}@example.com`));
    expect(before.status, before.text).toBe(200);
    const token = JSON.parse(before.text).access_token as string;

    // Requests in flight: held inside PostgreSQL by a lock until their backends are terminated.
    const locker = new pg.Client({ connectionString: postgres.url.replace(/\/postgres$/, "/refusing") });
    locker.on("error", () => {}); // its own termination below
    await locker.connect();
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE users IN ACCESS EXCLUSIVE MODE");
    const inFlight = [signUpRequest(`during-${crypto.randomUUID()}@example.com`), ["/users", { headers: serverHeaders }] as [string, RequestInit]].map(call);
    for (let waiting = 0; waiting < 2; ) {
      waiting = await backendsOf(true);
      await new Promise((resolve) => setImmediate(resolve));
    }

    await admin.query("ALTER DATABASE refusing ALLOW_CONNECTIONS false");
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'refusing' AND pid <> pg_backend_pid()");
    await locker.end().catch(() => {});
    expect(await Promise.all(inFlight)).toEqual([unavailable("/auth/password/sign-up"), unavailable("/users")]);

    // New requests need a new connection, which PostgreSQL refuses (55000): each answered the same, none 500.
    const fresh: Array<[string, RequestInit]> = [
      signUpRequest(`during-${crypto.randomUUID()}@example.com`),
      ["/users", { headers: serverHeaders }],
      ["/users/me", { headers: { ...clientHeaders, "x-stack-access-token": token } }],
      ["/projects/current", { headers: clientHeaders }],
    ];
    for (let round = 0; round < 3; round++) {
      expect(await Promise.all(fresh.map(call))).toEqual(fresh.map(([path]) => unavailable(path)));
    }

    await admin.query("ALTER DATABASE refusing ALLOW_CONNECTIONS true");
    let users: ApiResponse | undefined;
    for (let deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      users = await listUsers();
      if (users.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(users!.status).toBe(200);
    const emails = users!.body.items.map((user: { primary_email: string }) => user.primary_email);
    expect(emails.filter((address: string) => address.startsWith("during-"))).toEqual([]);
    expect((await me(token)).status).toBe(200);
    expect(await backendsOf(false)).toBeGreaterThan(0);
  }, 180_000);
});

// The same through a proxy in front of the suite's PostgreSQL that refuses new connections with whatever code a
// server, a pooler or a failover may send, cuts them, or accepts them and never answers.
describe.skipIf(!onPostgres)("connection failures of every kind", () => {
  let proxy: PostgresProxy;
  let server: RunningServer;
  let dropDatabase: () => Promise<void>;
  beforeAll(async () => {
    const adminUrl = new URL(process.env.LATCHKEY_TEST_DATABASE_URL!);
    const name = `latchkey_test_${crypto.randomUUID().replaceAll("-", "")}`;
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: adminUrl.toString() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    };
    proxy = await startPostgresProxy({ host: adminUrl.hostname, port: Number(adminUrl.port || 5432) });
    const proxied = new URL(adminUrl);
    proxied.host = `127.0.0.1:${proxy.port}`;
    proxied.pathname = `/${name}`;
    const env = readEnv({ LATCHKEY_PORT: "0", LATCHKEY_HOST: "127.0.0.1", LATCHKEY_LOG_LEVEL: "silent" });
    server = await startServer(env, createLogger(env.logLevel), { db: await connectDatabase({ kind: "postgres", url: proxied.toString() }) });
  }, 120_000);
  afterAll(async () => {
    proxy?.set({ kind: "pass" });
    await server?.close();
    await server?.db.destroy();
    await proxy?.close();
    await dropDatabase?.();
  });

  const requests = (): Array<[string, RequestInit]> => [
    ["/auth/password/sign-up", { method: "POST", headers: { ...clientHeaders, "content-type": "application/json" }, body: JSON.stringify({ email: `during-${crypto.randomUUID()}@example.com`, password: "correct horse battery" }) }],
    ["/users", { headers: serverHeaders }],
  ];
  const answers = (list: Array<[string, RequestInit]>) =>
    Promise.all(
      list.map(async ([path, init]) => {
        const response = await fetch(server.url + "/api/v1" + path, init);
        return { path, status: response.status, text: await response.text(), retryAfter: response.headers.get("retry-after") };
      }),
    );
  const unavailable = (list: Array<[string, RequestInit]>) =>
    list.map(([path]) => ({ path, status: 503, text: "The database is unavailable. Please try again in a moment.", retryAfter: "5" }));

  it.each([
    ["53300", "sorry, too many clients already"],
    ["57P03", "the database system is starting up"],
    ["55000", 'database "latchkey" is not currently accepting connections'],
    ["28P01", 'password authentication failed for user "postgres"'],
    ["3D000", 'database "latchkey" does not exist'],
    ["08P01", "invalid startup packet layout"],
    ["XX000", "a code no list of ours names"],
  ])("answers 503 with Retry-After while new connections are refused with %s, then serves again", async (code, message) => {
    expect((await answers(requests().slice(1)))[0]!.status).toBe(200);
    proxy.set({ kind: "refuse", code, message });
    // Connections already open are cut too, so every request needs a new one.
    proxy.cutAll();
    for (let round = 0; round < 2; round++) {
      const list = requests();
      expect(await answers(list)).toEqual(unavailable(list));
    }
    proxy.set({ kind: "pass" });
    let status = 0;
    for (let deadline = Date.now() + 30_000; status !== 200 && Date.now() < deadline; ) status = (await answers(requests().slice(1)))[0]!.status;
    expect(status).toBe(200);
  }, 60_000);

  it("answers 503 with Retry-After when a new connection is accepted and never answered (the pool's timeout)", async () => {
    proxy.set({ kind: "silent" });
    proxy.cutAll();
    const list = requests();
    expect(await answers(list)).toEqual(unavailable(list));
    proxy.set({ kind: "pass" });
  }, 60_000);
});

// Found measuring shutdowns under load (bench/shutdown-drain.mjs): with all ten pooled connections busy, a request
// that waited 3 s for one was answered "the database is unavailable", some after their sign-up had committed. A
// busy pool is load, not an outage: a request waits up to 10 s for a connection; only connecting is bounded by 3 s.
describe.skipIf(!onPostgres)("a busy connection pool", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it("is waited for longer than a new connection's 3 s, and every request is served once connections free up", async () => {
    const url = new URL(process.env.LATCHKEY_TEST_DATABASE_URL!);
    url.pathname = `/${(await server.db.selectNoFrom(sql<string>`current_database()`.as("name")).executeTakeFirstOrThrow()).name}`;
    const locker = new pg.Client({ connectionString: url.toString() });
    const monitor = new pg.Client({ connectionString: url.toString() });
    await Promise.all([locker.connect(), monitor.connect()]);
    try {
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE users IN ACCESS EXCLUSIVE MODE");
      // Ten user lists hold the ten pooled connections, each waiting for the lock.
      const holders = Array.from({ length: 10 }, () => api(server.url, "/users", { access: "server" }));
      // Watched from outside the locker's transaction, whose view of pg_stat_activity would stay as it first saw it.
      for (let waiting = 0; waiting < 10; ) {
        waiting = (await monitor.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0].n;
      }
      let answered = false;
      const queued = api(server.url, "/users", { access: "server" }).finally(() => (answered = true));
      // Past the 3 s a new connection gets (the time this is about), the request still waits for a pooled one.
      const sent = Date.now();
      while (Date.now() - sent < 3_500) {
        expect(answered).toBe(false);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await locker.query("COMMIT");
      expect((await Promise.all(holders)).map((answer) => answer.status)).toEqual(Array(10).fill(200));
      expect((await queued).status).toBe(200);
    } finally {
      await Promise.all([locker.end(), monitor.end()]);
    }
  }, 60_000);
});
