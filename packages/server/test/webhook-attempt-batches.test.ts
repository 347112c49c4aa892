import { createServer, type Server } from "node:http";
import { Webhook } from "svix";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestProject, type TestProject, type TestServer } from "./support/test-server.js";
import { useWebhookServer, waitUntil } from "./support/webhooks-fixture.js";

/**
 * Webhooks (issue 18), the worker's bookkeeping: a claimed batch is sent at once and its attempts recorded in one
 * statement (services/webhook-attempt-records.ts). Each delivery of a batch must still come to its own outcome —
 * some answered, some refused, an answer PostgreSQL's text cannot hold as sent, a delivery whose claim another
 * worker took meanwhile — against a real receiver that verifies every delivery with the `svix` package.
 */

const fixture = useWebhookServer();
let server: TestServer;
beforeAll(() => ({ server } = fixture.parts()));

interface Received {
  id: string;
  type: string;
}

/** Answers each delivery by its event type: `answer` gives the status and body, and may hold the answer back. */
async function startTypedReceiver(answer: (type: string, attempt: number) => Promise<{ status: number; body: string }> | { status: number; body: string }) {
  const received: Received[] = [];
  let secret = "";
  const http: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", async () => {
      const event = new Webhook(secret).verify(body, request.headers as Record<string, string>) as { type: string };
      const id = request.headers["webhook-id"] as string;
      received.push({ id, type: event.type });
      const { status, body: text } = await answer(event.type, received.filter((r) => r.id === id).length);
      response.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(text);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  receivers.push(http);
  return {
    url: `http://127.0.0.1:${(http.address() as { port: number }).port}/hook`,
    received,
    useSecret: (value: string) => (secret = value),
  };
}
const receivers: Server[] = [];
afterAll(() => receivers.forEach((r) => r.close()));

async function endpointAt(project: TestProject, url: string, useSecret: (secret: string) => void): Promise<string> {
  const svix = await fixture.svixFor(project);
  const endpoint = await svix.endpoint.create(project.projectId, { url });
  useSecret((await svix.endpoint.getSecret(project.projectId, endpoint.id)).key);
  return endpoint.id;
}

const deliveriesOf = (endpointId: string) => server.db.selectFrom("webhook_deliveries").selectAll().where("endpoint_id", "=", endpointId).execute();
const attemptsOf = (endpointId: string) =>
  server.db.selectFrom("webhook_attempts").select(["message_id", "response_status", "response_body"]).where("endpoint_id", "=", endpointId).orderBy("attempted_at").execute();

describe("a batch of deliveries", () => {
  it("records each delivery's own outcome when some are answered and some refused, and retries only the refused", async () => {
    const project = await createTestProject(server, "Mixed batch", { configOverride: { "teams.createPersonalTeamOnSignUp": true } });
    // 1,023 characters then an emoji: the first 1 KiB of the answer ends in half of it; and a NUL character.
    const awkward = `${"a".repeat(1023)}😀 and more`;
    const receiver = await startTypedReceiver((type, attempt) => {
      if (type === "team.created" && attempt === 1) return { status: 500, body: "try again" };
      if (type === "team_membership.created") return { status: 200, body: "fine\0thanks" };
      return { status: 200, body: type === "user.created" ? awkward : "ok" };
    });
    const endpointId = await endpointAt(project, receiver.url, receiver.useSecret);

    // One commit, so one batch: user.created, the personal team's team.created and its membership (and the
    // creator's default permissions).
    const user = await fixture.as(project, "server", "/users", "POST", { display_name: "Batch" });
    expect(user.status).toBe(201);
    const first = await waitUntil(async () => {
      const rows = await deliveriesOf(endpointId);
      return rows.length >= 3 && rows.every((r) => r.attempts === 1 && r.claim_token === null) ? rows : undefined;
    });
    const typeOf = new Map(receiver.received.map((r) => [r.id, r.type]));
    const byType = (type: string) => first.find((r) => typeOf.get(r.message_id) === type)!;

    const refused = byType("team.created");
    expect(refused).toMatchObject({ status: "pending", attempts: 1, last_response_status: 500, last_response_body: "try again" });
    // The retry schedule's second step: 5 s (±10 %) after the attempt.
    const waitMs = refused.next_attempt_at!.getTime() - refused.last_attempt_at!.getTime();
    expect(waitMs).toBeGreaterThanOrEqual(4_400);
    expect(waitMs).toBeLessThanOrEqual(5_600);
    for (const delivery of first.filter((r) => r !== refused)) expect(delivery).toMatchObject({ status: "succeeded", attempts: 1, last_response_status: 200, next_attempt_at: null });
    // What PostgreSQL's text cannot hold is left out of the excerpt, not the reason the batch goes unrecorded.
    expect(byType("user.created").last_response_body).toBe(`${"a".repeat(1023)}\uFFFD`);
    expect(byType("team_membership.created").last_response_body).toBe("finethanks");
    // One attempt recorded per delivery, each with its own answer.
    const attempts = await attemptsOf(endpointId);
    expect(attempts).toHaveLength(first.length);
    expect(attempts.find((a) => a.message_id === refused.message_id)).toMatchObject({ response_status: 500, response_body: "try again" });
    expect(attempts.filter((a) => a.response_status === 200)).toHaveLength(first.length - 1);
    // The endpoint answered in that batch: no run of failures has begun.
    const endpoint = await server.db.selectFrom("webhook_endpoints").select(["failing_since", "disabled"]).where("id", "=", endpointId).executeTakeFirstOrThrow();
    expect(endpoint).toEqual({ failing_since: null, disabled: false });

    // The refused one alone comes again, with the same webhook-id, and is then recorded as answered.
    const retried = await waitUntil(async () => {
      const row = (await deliveriesOf(endpointId)).find((r) => r.message_id === refused.message_id)!;
      return row.status === "succeeded" ? row : undefined;
    });
    expect(retried).toMatchObject({ attempts: 2, last_response_status: 200 });
    expect(receiver.received.filter((r) => r.id === refused.message_id)).toHaveLength(2);
    expect(receiver.received).toHaveLength(first.length + 1);
    expect((await attemptsOf(endpointId)).filter((a) => a.message_id === refused.message_id).map((a) => a.response_status)).toEqual([500, 200]);
  }, 40_000);

  it("leaves a delivery alone whose claim another worker took while it was being sent, and records the rest of the batch", async () => {
    const project = await createTestProject(server, "Taken over", { configOverride: { "teams.createPersonalTeamOnSignUp": true } });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const receiver = await startTypedReceiver(async (type) => {
      // The user.created answer waits until the test has moved that delivery's claim to another worker.
      if (type === "user.created") await held;
      return { status: 200, body: "ok" };
    });
    const endpointId = await endpointAt(project, receiver.url, receiver.useSecret);
    expect((await fixture.as(project, "server", "/users", "POST", { display_name: "Held" })).status).toBe(201);
    const sending = await waitUntil(async () => {
      const found = receiver.received.find((r) => r.type === "user.created");
      return found && receiver.received.length >= 3 ? found : undefined;
    });
    // As if this worker's lease had run out and another worker had claimed the delivery.
    const otherClaim = crypto.randomUUID();
    await server.db.updateTable("webhook_deliveries").set({ claim_token: otherClaim }).where("message_id", "=", sending.id).where("endpoint_id", "=", endpointId).execute();
    release();

    const settled = await waitUntil(async () => {
      const rows = await deliveriesOf(endpointId);
      const others = rows.filter((r) => r.message_id !== sending.id);
      return others.length >= 2 && others.every((r) => r.status === "succeeded") ? rows : undefined;
    });
    // The taken-over delivery is the other worker's to record: untouched, no attempt counted by this one.
    expect(settled.find((r) => r.message_id === sending.id)).toMatchObject({ status: "pending", attempts: 0, claim_token: otherClaim, last_response_status: null });
    const attempts = await attemptsOf(endpointId);
    expect(attempts.map((a) => a.message_id).sort()).toEqual(settled.filter((r) => r.message_id !== sending.id).map((r) => r.message_id).sort());
  });
});
