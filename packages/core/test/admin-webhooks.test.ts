import { describe, expect, it } from "vitest";
import { adminAppFor, createTestProject, serverAppFor, useLiveServer } from "./support/live-server.js";
import { useWebhookReceiver, verifyDelivery } from "./support/webhook-receiver.js";

// The receiver listens on 127.0.0.1, which the server refuses as a webhook target unless allowed (issue 18).
const live = useLiveServer({ LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" });

const receiver = useWebhookReceiver();

describe("an admin app's webhook endpoints", () => {
  it("adds an endpoint, sends it a test event and the project's real events, lists it and deletes it", async () => {
    const project = await createTestProject(live.server());
    const admin = adminAppFor(live.server(), project);
    expect(await admin.listWebhookEndpoints()).toEqual([]);

    const endpoint = await admin.createWebhookEndpoint({ url: `${receiver.url}/hooks/app`, description: "Our app", filterTypes: ["user.created"] });
    expect(endpoint).toMatchObject({ url: `${receiver.url}/hooks/app`, description: "Our app", disabled: false, filterTypes: ["user.created"] });
    expect(endpoint.createdAt).toBeInstanceOf(Date);
    const secret = await admin.getWebhookEndpointSecret(endpoint.id);
    expect(secret).toMatch(/^whsec_/);

    const test = await admin.sendTestWebhookEvent(endpoint.id);
    expect(test.messageId).toMatch(/^msg_/);
    const [example] = await receiver.deliveriesTo("/hooks/app", 1);
    expect(verifyDelivery(example!, secret)).toMatchObject({ type: "user.created", data: { primary_email: "john.doe@example.com" } });

    const user = await serverAppFor(live.server(), project).createUser({ displayName: "Hooked" });
    const [, real] = await receiver.deliveriesTo("/hooks/app", 2);
    expect(verifyDelivery(real!, secret)).toMatchObject({ type: "user.created", data: { id: user.id, display_name: "Hooked" } });
    // Signed with this endpoint's secret only.
    expect(() => verifyDelivery(real!, `whsec_${Buffer.from("another secret of 24+ bytes!").toString("base64")}`)).toThrow();

    expect((await admin.listWebhookEndpoints()).map((e) => e.id)).toEqual([endpoint.id]);
    await admin.deleteWebhookEndpoint(endpoint.id);
    expect(await admin.listWebhookEndpoints()).toEqual([]);
  });

  it("chooses the Stack SDK version whose shapes an endpoint's payloads carry: 2.8.41 by default, 2.8.108 on request", async () => {
    const project = await createTestProject(live.server());
    const admin = adminAppFor(live.server(), project);
    const endpoint = await admin.createWebhookEndpoint({ url: `${receiver.url}/hooks/versions`, filterTypes: ["user.created"] });
    expect(endpoint.payloadVersion).toBe("2.8.41");
    const secret = await admin.getWebhookEndpointSecret(endpoint.id);
    const server = serverAppFor(live.server(), project);
    await server.createUser({ displayName: "Older" });
    const [older] = await receiver.deliveriesTo("/hooks/versions", 1);
    expect(verifyDelivery(older!, secret).data).not.toHaveProperty("is_restricted");

    const updated = await admin.updateWebhookEndpoint(endpoint.id, { payloadVersion: "2.8.108" });
    expect(updated.payloadVersion).toBe("2.8.108");
    expect((await admin.getWebhookEndpoint(endpoint.id)).payloadVersion).toBe("2.8.108");
    // Other changes leave it as it is.
    expect((await admin.updateWebhookEndpoint(endpoint.id, { description: "Newer SDK" })).payloadVersion).toBe("2.8.108");
    await server.createUser({ displayName: "Newer" });
    const [, newer] = await receiver.deliveriesTo("/hooks/versions", 2);
    expect(verifyDelivery(newer!, secret).data).toMatchObject({ display_name: "Newer", is_restricted: false, restricted_reason: null, country_code: null });
    expect((await admin.createWebhookEndpoint({ url: `${receiver.url}/hooks/other`, payloadVersion: "2.8.108" })).payloadVersion).toBe("2.8.108");
  });
});
