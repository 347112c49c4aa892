import { createServer, type Server } from "node:http";
import pg from "pg";
import { Svix, Webhook } from "svix";
import { afterAll, describe, expect, it } from "vitest";
import { WELL_KNOWN_DEV_KEYS } from "../src/env.js";
import { createDatabaseStatement, killServerProcesses, runServerProcess, waitUntilServing } from "./support/server-process.js";
import { freePort } from "./support/ports.js";

// Webhooks across processes (issue 18): a committed event is in the outbox, not in the memory of the process that
// wrote it, so the next process delivers it; and a process's cache of projects with endpoints follows changes
// made by another. Real PostgreSQL only: it is what several processes
// share (an embedded PGlite has one process per data dir), and what this test reads while the processes run.
const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";
const databases: string[] = [];
const receivers: Server[] = [];

afterAll(async () => {
  killServerProcesses();
  for (const receiver of receivers) receiver.close();
  if (databases.length === 0) return;
  const client = new pg.Client({ connectionString: process.env.LATCHKEY_TEST_DATABASE_URL });
  await client.connect();
  for (const name of databases) await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
});

const admin = { "x-stack-project-id": "internal", "x-stack-access-type": "admin", "x-stack-super-secret-admin-key": WELL_KNOWN_DEV_KEYS.superSecretAdminKey };
const serverAccess = { "x-stack-project-id": "internal", "x-stack-access-type": "server", "x-stack-secret-server-key": WELL_KNOWN_DEV_KEYS.secretServerKey };

async function freshDatabase(): Promise<string> {
  const adminUrl = process.env.LATCHKEY_TEST_DATABASE_URL!;
  const name = `latchkey_hooks_${crypto.randomUUID().replaceAll("-", "")}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(createDatabaseStatement(name));
  await client.end();
  databases.push(name);
  return Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
}


async function waitUntil<T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!onPostgres)("webhooks across server processes", () => {
  it("delivers an event committed by a process killed before delivering it, from the next process, with the same id", async () => {
    const databaseUrl = await freshDatabase();
    const env = { LATCHKEY_DATABASE_URL: databaseUrl, LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" };
    // The receiver is not listening yet: the first process's attempt fails and a retry is due 5 s later.
    const port = await freePort();
    const first = runServerProcess(env);
    await waitUntilServing(first);
    const token = (await (await fetch(`${first.url}/api/v1/webhooks/svix-token`, { method: "POST", headers: { ...admin, "content-type": "application/json" }, body: "{}" })).json()) as { token: string };
    const svix = new Svix(token.token, { serverUrl: `${first.url}/api/v1/webhooks/svix` });
    const endpoint = await svix.endpoint.create("internal", { url: `http://127.0.0.1:${port}/hook`, filterTypes: ["user.created"] });
    const secret = (await svix.endpoint.getSecret("internal", endpoint.id)).key;
    const created = await fetch(`${first.url}/api/v1/users`, { method: "POST", headers: { ...serverAccess, "content-type": "application/json" }, body: JSON.stringify({ display_name: "Survivor" }) });
    expect(created.status).toBe(201);
    const user = (await created.json()) as { id: string };

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const delivery = () => db.query("select status, attempts, message_id from webhook_deliveries where endpoint_id = $1", [endpoint.id]).then((r) => r.rows[0]);
      await waitUntil(async () => ((await delivery())?.attempts === 1 ? true : undefined));
      first.child.kill("SIGKILL");
      await first.exited;
      expect(await delivery()).toMatchObject({ status: "pending", attempts: 1 });

      const deliveries: Array<{ id: string | undefined; payload: any }> = [];
      const receiver = createServer((request, response) => {
        let body = "";
        request.on("data", (chunk) => (body += chunk));
        request.on("end", () => {
          deliveries.push({ id: request.headers["webhook-id"] as string | undefined, payload: new Webhook(secret).verify(body, request.headers as Record<string, string>) });
          response.writeHead(200).end();
        });
      });
      receivers.push(receiver);
      await new Promise<void>((resolve) => receiver.listen(port, "127.0.0.1", resolve));

      const second = runServerProcess(env);
      await waitUntilServing(second);
      await waitUntil(async () => (deliveries.length > 0 ? true : undefined));
      expect(deliveries).toEqual([{ id: (await delivery()).message_id, payload: { type: "user.created", data: expect.objectContaining({ id: user.id, display_name: "Survivor" }) } }]);
      await waitUntil(async () => ((await delivery()).status === "succeeded" ? true : undefined));
      expect(await delivery()).toMatchObject({ status: "succeeded", attempts: 2 });
    } finally {
      await db.end();
    }
  }, 240_000);

  it("sends a batch again, with the same ids, when the process that sent it was killed before recording it", async () => {
    const databaseUrl = await freshDatabase();
    const env = { LATCHKEY_DATABASE_URL: databaseUrl, LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" };
    // Until the first process is gone, the receiver takes the deliveries but holds its answers, so the batch
    // has been sent and not recorded when the process dies.
    let answering = false;
    const received: string[] = [];
    const receiver = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        received.push(request.headers["webhook-id"] as string);
        if (answering) response.writeHead(200).end("ok");
      });
    });
    receivers.push(receiver);
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const first = runServerProcess(env);
    await waitUntilServing(first);
    const token = (await (await fetch(`${first.url}/api/v1/webhooks/svix-token`, { method: "POST", headers: { ...admin, "content-type": "application/json" }, body: "{}" })).json()) as { token: string };
    const svix = new Svix(token.token, { serverUrl: `${first.url}/api/v1/webhooks/svix` });
    // The user exists before the endpoint; the team with its creator is several events in one commit, so one batch
    // (held answers time out after 15 s: a second batch would not be sent before the first is recorded).
    const user = (await (await fetch(`${first.url}/api/v1/users`, { method: "POST", headers: { ...serverAccess, "content-type": "application/json" }, body: "{}" })).json()) as { id: string };
    const endpoint = await svix.endpoint.create("internal", { url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook` });
    const team = await fetch(`${first.url}/api/v1/teams`, { method: "POST", headers: { ...serverAccess, "content-type": "application/json" }, body: JSON.stringify({ display_name: "Batch", creator_user_id: user.id }) });
    expect(team.status).toBe(201);

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const deliveries = () =>
        db.query("select message_id, status, attempts from webhook_deliveries where endpoint_id = $1 order by message_id", [endpoint.id]).then((r) => r.rows as Array<{ message_id: string; status: string; attempts: number }>);
      // The worker makes the deliveries of the team's messages (one per event) as it claims them.
      const events = (await db.query("select id from webhook_messages where event_type like 'team%' order by id")).rows.map((r: { id: string }) => r.id);
      expect(events.length).toBeGreaterThanOrEqual(2);
      const messageIds = await waitUntil(async () => {
        const ids = (await deliveries()).map((d) => d.message_id);
        return ids.length === events.length ? ids : undefined;
      });
      expect(messageIds).toEqual(events);
      await waitUntil(async () => (messageIds.every((id) => received.includes(id)) ? true : undefined));
      first.child.kill("SIGKILL");
      await first.exited;
      // Sent, but nothing recorded: every delivery is still due.
      expect((await deliveries()).every((d) => d.status === "pending" && d.attempts === 0)).toBe(true);
      expect((await db.query("select count(*)::int as n from webhook_attempts where endpoint_id = $1", [endpoint.id])).rows[0].n).toBe(0);

      // The dead process's claim is a 60 s lease; rather than wait it out, the test moves the clock of these rows
      // to the moment it runs out (claim token and attempt count stay as the dead process left them).
      expect((await db.query("update webhook_deliveries set next_attempt_at = now() where endpoint_id = $1 and next_attempt_at > now()", [endpoint.id])).rowCount).toBe(messageIds.length);
      answering = true;
      const second = runServerProcess(env);
      await waitUntilServing(second);
      // With the lease run out, the next process sends the batch again.
      await waitUntil(async () => ((await deliveries()).every((d) => d.status === "succeeded") ? true : undefined), 150_000);
      expect((await deliveries()).map((d) => d.attempts)).toEqual(messageIds.map(() => 1));
      // Each message twice with its own id: the unanswered send, then the one recorded.
      for (const id of messageIds) expect(received.filter((r) => r === id)).toHaveLength(2);
      expect((await db.query("select count(*)::int as n from webhook_attempts where endpoint_id = $1", [endpoint.id])).rows[0].n).toBe(messageIds.length);
    } finally {
      await db.end();
    }
  }, 240_000);

  it("a process that cached 'no endpoints' for a project hears of an endpoint another process created", async () => {
    const databaseUrl = await freshDatabase();
    const env = { LATCHKEY_DATABASE_URL: databaseUrl, LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" };
    const writer = runServerProcess(env);
    await waitUntilServing(writer);
    const manager = runServerProcess(env);
    await waitUntilServing(manager);
    const createUser = async () => {
      const response = await fetch(`${writer.url}/api/v1/users`, { method: "POST", headers: { ...serverAccess, "content-type": "application/json" }, body: "{}" });
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: string }).id;
    };
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const written = (userId: string) => db.query("select 1 from webhook_messages where payload -> 'data' ->> 'id' = $1", [userId]).then((r) => r.rows.length > 0);
      // The writer caches that the project has no endpoint.
      expect(await written(await createUser())).toBe(false);
      expect(await written(await createUser())).toBe(false);

      const token = (await (await fetch(`${manager.url}/api/v1/webhooks/svix-token`, { method: "POST", headers: { ...admin, "content-type": "application/json" }, body: "{}" })).json()) as { token: string };
      const svix = new Svix(token.token, { serverUrl: `${manager.url}/api/v1/webhooks/svix` });
      await svix.endpoint.create("internal", { url: "http://127.0.0.1:9/never-answers", filterTypes: ["user.created"] });
      // The change feed tells the writer within milliseconds; the cache would otherwise answer for 60 s.
      await waitUntil(async () => ((await written(await createUser())) ? true : undefined), 15_000);
      // From then on every write is announced.
      expect(await written(await createUser())).toBe(true);
    } finally {
      await db.end();
    }
  }, 240_000);
});
