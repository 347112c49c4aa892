import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "svix";
import { adminAppFor, createTestProject, serverAppFor, useLiveServer } from "./support/live-server.js";

// The receiver listens on 127.0.0.1, which the server refuses as a webhook target unless allowed (issue 18).
const live = useLiveServer({ LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" });

/** A real HTTP receiver that keeps what reaches it, each body verified with the official `svix` package. */
let receiver: Server;
let receiverUrl: string;
const received: { path: string; verify: (secret: string) => unknown }[] = [];
beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", verify: (secret) => new Webhook(secret).verify(body, request.headers as Record<string, string>) });
      response.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

async function deliveriesTo(path: string, count: number) {
  const deadline = Date.now() + 20_000;
  while (received.filter((d) => d.path === path).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const deliveries = received.filter((d) => d.path === path);
  expect(deliveries.length, `deliveries to ${path}`).toBeGreaterThanOrEqual(count);
  return deliveries;
}

describe("an admin app's webhook endpoints", () => {
  it("adds an endpoint, sends it a test event and the project's real events, lists it and deletes it", async () => {
    const project = await createTestProject(live.server());
    const admin = adminAppFor(live.server(), project);
    expect(await admin.listWebhookEndpoints()).toEqual([]);

    const endpoint = await admin.createWebhookEndpoint({ url: `${receiverUrl}/hooks/app`, description: "Our app", filterTypes: ["user.created"] });
    expect(endpoint).toMatchObject({ url: `${receiverUrl}/hooks/app`, description: "Our app", disabled: false, filterTypes: ["user.created"] });
    expect(endpoint.createdAt).toBeInstanceOf(Date);
    const secret = await admin.getWebhookEndpointSecret(endpoint.id);
    expect(secret).toMatch(/^whsec_/);

    const test = await admin.sendTestWebhookEvent(endpoint.id);
    expect(test.messageId).toMatch(/^msg_/);
    const [example] = await deliveriesTo("/hooks/app", 1);
    expect(example!.verify(secret)).toMatchObject({ type: "user.created", data: { primary_email: "john.doe@example.com" } });

    const user = await serverAppFor(live.server(), project).createUser({ displayName: "Hooked" });
    const [, real] = await deliveriesTo("/hooks/app", 2);
    expect(real!.verify(secret)).toMatchObject({ type: "user.created", data: { id: user.id, display_name: "Hooked" } });
    // Signed with this endpoint's secret only.
    expect(() => real!.verify(`whsec_${Buffer.from("another secret of 24+ bytes!").toString("base64")}`)).toThrow();

    expect((await admin.listWebhookEndpoints()).map((e) => e.id)).toEqual([endpoint.id]);
    await admin.deleteWebhookEndpoint(endpoint.id);
    expect(await admin.listWebhookEndpoints()).toEqual([]);
  });
});
