import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEnv, WELL_KNOWN_DEV_KEYS } from "../src/env.js";
import { createLogger } from "../src/log.js";
import { startServer, type RunningServer } from "../src/server.js";
import { api, type ApiResponse } from "./support/api.js";
import { createPrivatePostgres, privatePostgresAvailable, type PrivatePostgres } from "./support/private-postgres.js";

// Issue 17: with PostgreSQL stopped, requests must answer 503 with a clear body instead of hanging, write
// nothing half, and the server must recover by itself once the database is back. A database of the test's
// own, since stopping the suite's shared one would fail every other test.
const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";

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
  const clientHeaders = { "x-stack-project-id": "internal", "x-stack-access-type": "client", "x-stack-publishable-client-key": WELL_KNOWN_DEV_KEYS.publishableClientKey };
  const serverHeaders = { "x-stack-project-id": "internal", "x-stack-access-type": "server", "x-stack-secret-server-key": WELL_KNOWN_DEV_KEYS.secretServerKey };

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
