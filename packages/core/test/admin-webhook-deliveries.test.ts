import { describe, expect, it } from "vitest";
import { WebhookApiError } from "../src/index.js";
import { adminAppFor, createTestProject, useLiveServer } from "./support/live-server.js";
import { useWebhookReceiver, verifyDelivery } from "./support/webhook-receiver.js";

// The receiver listens on 127.0.0.1, which the server refuses as a webhook target unless allowed (issue 18).
const live = useLiveServer({ LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" });

const receiver = useWebhookReceiver();

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("an admin app's webhook deliveries", () => {
  it("updates an endpoint, rotates its secret and lists the event types", async () => {
    const project = await createTestProject(live.server());
    const admin = adminAppFor(live.server(), project);
    const endpoint = await admin.createWebhookEndpoint({
      url: `${receiver.url}/hooks/update`,
    });
    expect(endpoint.filterTypes).toBeNull();

    const updated = await admin.updateWebhookEndpoint(endpoint.id, {
      disabled: true,
      description: "Paused",
      filterTypes: ["team.created", "team.deleted"],
    });
    expect(updated).toMatchObject({
      id: endpoint.id,
      disabled: true,
      description: "Paused",
      filterTypes: ["team.created", "team.deleted"],
    });
    expect(await admin.getWebhookEndpoint(endpoint.id)).toMatchObject({
      disabled: true,
      description: "Paused",
    });
    expect(
      await admin.updateWebhookEndpoint(endpoint.id, {
        disabled: false,
        filterTypes: null,
      }),
    ).toMatchObject({ disabled: false, filterTypes: null });

    const before = await admin.getWebhookEndpointSecret(endpoint.id);
    await admin.rotateWebhookEndpointSecret(endpoint.id);
    const after = await admin.getWebhookEndpointSecret(endpoint.id);
    expect(after).toMatch(/^whsec_/);
    expect(after).not.toBe(before);

    const types = await admin.listWebhookEventTypes();
    expect(types.map((type) => type.name)).toContain("team_membership.created");
    expect(types).toHaveLength(12);
    expect(types.find((type) => type.name === "user.created")?.description).toBe("This event is triggered when a user is created.");

    // The server's refusal in words, with Svix's code.
    const refusal = await admin.updateWebhookEndpoint(endpoint.id, { url: "ftp://example.com" }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(WebhookApiError);
    expect(refusal).toMatchObject({
      status: 422,
      code: "validation",
      message: "url: must be an http:// or https:// URL",
    });
    await expect(admin.getWebhookEndpoint("ep_missing")).rejects.toMatchObject({
      status: 404,
      message: "Entity not found",
    });
  });

  it("lists an endpoint's messages with their attempts, and resends a failed one once the receiver works", async () => {
    const project = await createTestProject(live.server());
    const admin = adminAppFor(live.server(), project);
    const endpoint = await admin.createWebhookEndpoint({
      url: `${receiver.url}/hooks/deliveries`,
    });
    const secret = await admin.getWebhookEndpointSecret(endpoint.id);

    receiver.failingPaths.add("/hooks/deliveries");
    const { messageId } = await admin.sendTestWebhookEvent(endpoint.id, "team.created");
    const failed = await until(
      () => admin.listWebhookMessageAttempts(messageId, endpoint.id),
      (attempts) => attempts.length >= 1,
    );
    expect(failed[0]).toMatchObject({
      messageId,
      endpointId: endpoint.id,
      url: `${receiver.url}/hooks/deliveries`,
      responseStatusCode: 500,
      response: "receiver is down",
      succeeded: false,
    });
    expect(failed[0]!.attemptedAt).toBeInstanceOf(Date);
    const [pending] = await admin.listWebhookEndpointMessages(endpoint.id);
    expect(pending).toMatchObject({
      id: messageId,
      eventType: "team.created",
      payload: {
        type: "team.created",
        data: { display_name: expect.any(String) },
      },
    });
    // Waiting for its retry (or in flight): not given up.
    expect(["pending", "sending"]).toContain(pending!.status);

    receiver.failingPaths.delete("/hooks/deliveries");
    await admin.resendWebhookMessage(messageId, endpoint.id);
    const messages = await until(
      () => admin.listWebhookEndpointMessages(endpoint.id),
      ([message]) => message?.status === "success",
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      id: messageId,
      status: "success",
      nextAttemptAt: null,
    });
    const attempts = await admin.listWebhookMessageAttempts(messageId, endpoint.id);
    expect(attempts[0]).toMatchObject({
      responseStatusCode: 200,
      response: "ok",
      succeeded: true,
    });
    expect(attempts.at(-1)).toMatchObject({
      responseStatusCode: 500,
      succeeded: false,
    });

    const delivered = receiver.received.filter((request) => request.path === "/hooks/deliveries").at(-1)!;
    expect(verifyDelivery(delivered, secret)).toMatchObject({ type: "team.created" });
  });
});
