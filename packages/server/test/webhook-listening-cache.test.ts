import { beforeAll, describe, expect, it } from "vitest";
import { createTestProject, type TestProject, type TestServer } from "./support/test-server.js";
import { useWebhookServer, type Receiver } from "./support/webhooks-fixture.js";

/**
 * Webhooks (issue 18): each process caches whether a project has an enabled endpoint (cache/webhook-listening.ts),
 * so writes in projects without webhooks skip the outbox lookup. The cache must follow every endpoint change at
 * once: a write right after an endpoint is created, disabled, enabled or deleted is written to the outbox exactly
 * when an enabled endpoint exists. (Across processes: webhooks-process.test.ts.)
 */

const fixture = useWebhookServer();
const { svixFor, as } = fixture;
let server: TestServer;
let receiver: Receiver;
beforeAll(() => ({ server, receiver } = fixture.parts()));

async function messagesOf(project: TestProject): Promise<string[]> {
  const rows = await server.db.selectFrom("webhook_messages").select("event_type").where("project_id", "=", project.projectId).orderBy("created_at").execute();
  return rows.map((row) => row.event_type);
}

describe("the per-process cache of projects with webhook endpoints", () => {
  it("writes events from the first write after an endpoint is created or enabled, and none after it is disabled or deleted", async () => {
    const project = await createTestProject(server);
    const user = () => as(project, "server", "/users", "POST", {}).then((response) => expect(response.status).toBe(201));
    // Twice: the second answer comes from the cache the first filled.
    await user();
    await user();
    expect(await messagesOf(project)).toEqual([]);

    const svix = await svixFor(project);
    const path = `/hook/${crypto.randomUUID()}`;
    const endpoint = await svix.endpoint.create(project.projectId, { url: receiver.url + path, filterTypes: ["user.created"] });
    await user();
    expect(await messagesOf(project)).toEqual(["user.created"]);

    await svix.endpoint.patch(project.projectId, endpoint.id, { disabled: true });
    await user();
    expect(await messagesOf(project)).toEqual(["user.created"]);

    await svix.endpoint.patch(project.projectId, endpoint.id, { disabled: false });
    await user();
    expect(await messagesOf(project)).toEqual(["user.created", "user.created"]);

    await svix.endpoint.delete(project.projectId, endpoint.id);
    await user();
    await user();
    expect(await messagesOf(project)).toEqual(["user.created", "user.created"]);
  });
});
