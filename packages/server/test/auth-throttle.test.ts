import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admitAttempt, recordFailedAttempt, secondsBlocked, sweepStaleThrottles, type ThrottleSubject } from "../src/services/auth-throttle.js";
import { api, type ApiResponse } from "./support/api.js";
import { onAnotherConnection } from "./support/one-connection-check.js";
import { createTestProject, PRODUCTION, startTestServer, type TestProject, type TestServer } from "./support/test-server.js";
import { afterTheWait, expectRefused, failTimes as failTimesWith } from "./support/throttle.js";

// Issue 17: 200 wrong passwords on one account in 11 s were all answered, and the right one still worked. The
// servers run in production mode: in dev mode loopback clients are not counted per address.
let server: TestServer;
let sameDatabase: TestServer;
let behindProxy: TestServer;
beforeAll(async () => {
  server = await startTestServer(PRODUCTION);
  sameDatabase = await startTestServer(PRODUCTION, { sameDatabaseAs: server });
  behindProxy = await startTestServer({ ...PRODUCTION, LATCHKEY_TRUSTED_PROXIES: "127.0.0.1, ::1" }, { sameDatabaseAs: server });
});
afterAll(async () => {
  await behindProxy?.close();
  await sameDatabase?.close();
  await server?.close();
});

const PASSWORD = "correct horse battery staple";
const email = () => `user-${crypto.randomUUID()}@example.com`;
const failTimes = (times: number, attempt: (i: number) => Promise<ApiResponse>) => failTimesWith(times, "EMAIL_PASSWORD_MISMATCH", attempt);

async function passwordProject(): Promise<TestProject> {
  const project = await createTestProject(server);
  const configured = await api(server.url, "/internal/projects/current", { method: "PATCH", headers: project.headers("admin"), body: { config: { credential_enabled: true } } });
  expect(configured.status).toBe(200);
  return project;
}

function signIn(project: TestProject, address: string, password: string, options: { via?: TestServer; forwardedFor?: string } = {}): Promise<ApiResponse> {
  const headers = { ...project.headers("client"), ...(options.forwardedFor ? { "x-forwarded-for": options.forwardedFor } : {}) };
  return api((options.via ?? server).url, "/auth/password/sign-in", { method: "POST", headers, body: { email: address, password } });
}

describe("wrong passwords on one account", () => {
  it("make the next attempt wait, doubling, even with the right password; a success starts over", async () => {
    const project = await passwordProject();
    const address = email();
    expect((await api(server.url, "/auth/password/sign-up", { method: "POST", headers: project.headers("client"), body: { email: address, password: PASSWORD } })).status).toBe(200);

    await failTimes(5, (i) => signIn(project, address, `wrong ${i}`));
    expectRefused(await signIn(project, address, PASSWORD), 1);
    // The next failure after the wait doubles it.
    expect((await afterTheWait(() => signIn(project, address, "wrong again"))).body.code).toBe("EMAIL_PASSWORD_MISMATCH");
    expectRefused(await signIn(project, address, PASSWORD), 2);

    expect((await afterTheWait(() => signIn(project, address, PASSWORD))).status).toBe(200);
    // A success clears the account's count: five more tries before any wait.
    await failTimes(5, (i) => signIn(project, address, `wrong after success ${i}`));
    expect((await signIn(project, address, "one too many")).status).toBe(429);
  });

  it("answer the same for an address without an account", async () => {
    const project = await passwordProject();
    const unknown = email();
    await failTimes(5, (i) => signIn(project, unknown, `wrong ${i}`));
    expectRefused(await signIn(project, unknown, PASSWORD), 1);
  });

  it("count on every server process sharing the database, whatever the address's case", async () => {
    const project = await passwordProject();
    const address = email();
    await failTimes(5, (i) => signIn(project, i % 2 ? address.toUpperCase() : address, `wrong ${i}`, { via: i % 2 ? server : sameDatabase }));
    expectRefused(await signIn(project, address, PASSWORD, { via: sameDatabase }), 1);
  });
});

describe("wrong passwords from one client address", () => {
  it("make that address wait after 50 failures across accounts; another address is not affected", async () => {
    const project = await passwordProject();
    const client = "203.0.113.7";
    await failTimes(50, (i) => signIn(project, email(), `wrong ${i}`, { via: behindProxy, forwardedFor: `${client}, 127.0.0.1` }));
    expectRefused(await signIn(project, email(), PASSWORD, { via: behindProxy, forwardedFor: client }), 1);
    expect((await signIn(project, email(), "wrong", { via: behindProxy, forwardedFor: "203.0.113.8" })).body.code).toBe("EMAIL_PASSWORD_MISMATCH");
  });

  it("ignore X-Forwarded-For unless the peer is a trusted proxy, so forging it escapes nothing", async () => {
    const project = await passwordProject();
    await failTimes(50, (i) => signIn(project, email(), `wrong ${i}`, { forwardedFor: `198.51.100.${i}` }));
    expect((await signIn(project, email(), PASSWORD, { forwardedFor: "198.51.100.200" })).status).toBe(429);
  });
});

describe("wrong passwords from an app's backend", () => {
  it("are not counted against its address: a server key speaks for many users from one address", async () => {
    const project = await passwordProject();
    const asServer = (address: string, password: string) =>
      api(server.url, "/auth/password/sign-in", { method: "POST", headers: project.headers("server"), body: { email: address, password } });
    await failTimes(55, (i) => asServer(email(), `wrong ${i}`));
    // The account's own count still applies.
    const address = email();
    await failTimes(5, (i) => asServer(address, `wrong ${i}`));
    expectRefused(await asServer(address, PASSWORD), 1);
  });
});

describe("a failure below the threshold", () => {
  // Found in CI: of four parallel MFA sign-ins with one code, one got a 429 for a one-second block. Another
  // request's failure had been recorded a few microseconds after the check's statement began.
  it.skipIf(process.env.LATCHKEY_TEST_DB !== "postgres")("blocks no check, not even one that began just before it was recorded", async () => {
    const project = await passwordProject();
    const subject: ThrottleSubject = { kind: "password", projectId: project.projectId, account: email(), clientIp: "198.51.100.7" };
    await server.db.transaction().execute(async (checking) => {
      // The check's clock (PostgreSQL's now(), fixed for its transaction) reads before the failure is written.
      await sql`select now()`.execute(checking);
      // On a connection of its own, as another request's failure would be (test servers otherwise keep PGlite's rule of
      // one connection: support/one-connection-check.ts).
      await onAnotherConnection(() => recordFailedAttempt(server.db, subject));
      expect(await secondsBlocked(checking, subject)).toBe(0);
    });
  });
});

// Issue 30: every sign-in takes a slot on its counters, so a counter row now exists for every account signed in to;
// the sweep deletes those that hold nothing once no slot of theirs can still count, and keeps the rest.
describe("the sweep of counters", () => {
  it("deletes those left with nothing by successes, and keeps failures and slots in use", async () => {
    const project = await passwordProject();
    const subject = (account: string): ThrottleSubject => ({ kind: "password", projectId: project.projectId, account });
    const [succeeded, failed, inUse] = [email(), email(), email()];
    await (await admitAttempt(server.db, subject(succeeded))).succeeded();
    await (await admitAttempt(server.db, subject(failed))).failed();
    await admitAttempt(server.db, subject(inUse));
    const keys = async () => (await sql<{ key: string }>`select key from auth_throttles where key like ${`%:${project.projectId}:%`} order by key`.execute(server.db)).rows.map((row) => row.key.split(":").at(-1));

    // Within the slots' lease, nothing goes.
    await sweepStaleThrottles(server.db);
    expect((await keys()).sort()).toEqual([succeeded, failed, inUse].sort());
    // Past it, the counter that holds nothing goes; the failure is kept, and so is the slot in use (a newer one).
    await sql`update auth_throttles set in_flight_since = now() - interval '1 minute' where key not like ${`%${inUse}`}`.execute(server.db);
    await sweepStaleThrottles(server.db);
    expect((await keys()).sort()).toEqual([failed, inUse].sort());
  });
});
