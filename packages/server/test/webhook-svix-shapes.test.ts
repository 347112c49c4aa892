import { beforeAll, describe, expect, it } from "vitest";
import { EndpointHeadersOutSerializer } from "svix/dist/models/endpointHeadersOut.js";
import { EndpointMessageOutSerializer } from "svix/dist/models/endpointMessageOut.js";
import { EndpointOutSerializer } from "svix/dist/models/endpointOut.js";
import { EndpointStatsSerializer } from "svix/dist/models/endpointStats.js";
import { EventTypeOutSerializer } from "svix/dist/models/eventTypeOut.js";
import { MessageAttemptOutSerializer } from "svix/dist/models/messageAttemptOut.js";
import { MessageEndpointOutSerializer } from "svix/dist/models/messageEndpointOut.js";
import { MessageOutSerializer } from "svix/dist/models/messageOut.js";
import { RecoverOutSerializer } from "svix/dist/models/recoverOut.js";
import { createTestProject, type TestProject, type TestServer } from "./support/test-server.js";
import { useWebhookServer, waitUntil } from "./support/webhooks-fixture.js";

/**
 * The Svix-compatible API's objects as sent (issue 29 §4), read raw rather than through the `svix` client (which
 * rebuilds them): every field is one of the official package's models, and a message without tags has no `tags`
 * at all, as the reference's Svix server answers (not `"tags": null`).
 */

const fixture = useWebhookServer();
const { listen, as } = fixture;
let server: TestServer;
beforeAll(() => ({ server } = fixture.parts()));

/** The field names of a model of the `svix` package (its serializer writes every one of them). */
const modelFields = (serializer: { _toJsonObject(self: never): object }) => Object.keys(serializer._toJsonObject({} as never));

function expectFieldsOf(serializer: { _toJsonObject(self: never): object }, value: object, label: string): void {
  const allowed = modelFields(serializer);
  expect(Object.keys(value).filter((key) => !allowed.includes(key)), `${label}: fields its svix model does not have`).toEqual([]);
}

async function svixRaw(project: TestProject, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  const token = (await as(project, "admin", "/webhooks/svix-token", "POST", {})).body.token as string;
  const response = await fetch(`${server.url}/api/v1/webhooks/svix/api/v1${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: response.status === 204 ? null : await response.json() };
}

describe("the Svix-compatible API's objects", () => {
  it("reads a message whole as the reference's Svix server answers it: no tags when it has none", async () => {
    const project = await createTestProject(server);
    const hook = await listen(project);
    const team = await as(project, "server", "/teams", "POST", { display_name: "Compared whole" });
    const [delivery] = await hook.waitFor(1);
    const id = delivery!.headers["webhook-id"] as string;
    const app = `/app/${project.projectId}`;

    const read = await svixRaw(project, `${app}/msg/${id}?with_content=true`);
    expect(read.status).toBe(200);
    expect(read.body).toStrictEqual({
      id,
      eventType: "team.created",
      payload: { type: "team.created", data: expect.objectContaining({ id: team.body.id, display_name: "Compared whole" }) },
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      channels: null,
      eventId: null,
    });
    expect((await svixRaw(project, `${app}/msg/${id}?with_content=false`)).body).toStrictEqual({ ...read.body, payload: {} });
    const listed = await svixRaw(project, `${app}/msg`);
    expect(listed.body).toStrictEqual({ data: [read.body], iterator: id, prevIterator: null, done: true });

    // The app's own message, as created and as read back.
    const created = await svixRaw(project, `${app}/msg`, { method: "POST", body: { eventType: "invoice.paid", payload: { amount: 1 } } });
    expect(created.status).toBe(202);
    expect(created.body).toStrictEqual({ id: expect.stringMatching(/^msg_/), eventType: "invoice.paid", payload: { amount: 1 }, timestamp: expect.any(String), channels: null, eventId: null });
    expect((await svixRaw(project, `${app}/msg/${created.body.id}`)).body).toStrictEqual(created.body);
  });

  it("sends attempts, deliveries, endpoints and the other objects with only their svix models' fields", async () => {
    const project = await createTestProject(server);
    const hook = await listen(project, { metadata: { owner: "billing" } });
    await as(project, "server", "/teams", "POST", { display_name: "Attempted" });
    const [delivery] = await hook.waitFor(1);
    const id = delivery!.headers["webhook-id"] as string;
    const app = `/app/${project.projectId}`;
    const endpointId = hook.endpoint.id;
    const attempts = await waitUntil(async () => {
      const page = await svixRaw(project, `${app}/attempt/msg/${id}`);
      return page.body.data.length === 1 ? page.body.data : undefined;
    });

    // An attempt: every field of MessageAttemptOut but `msg`, which Svix leaves out unless asked for.
    const attemptFields = modelFields(MessageAttemptOutSerializer).filter((field) => field !== "msg");
    expect(Object.keys(attempts[0]).sort()).toEqual(attemptFields.sort());
    expect((await svixRaw(project, `${app}/attempt/endpoint/${endpointId}`)).body.data).toStrictEqual(attempts);
    expect((await svixRaw(project, `${app}/msg/${id}/attempt/${attempts[0].id}`)).body).toStrictEqual(attempts[0]);

    // The messages an endpoint was sent: the message (no tags, no deliverAt: a MessageOut) and the delivery's state.
    const sent = await svixRaw(project, `${app}/endpoint/${endpointId}/msg`);
    const message = (await svixRaw(project, `${app}/msg/${id}`)).body;
    expect(sent.body.data).toStrictEqual([{ ...message, status: 0, statusText: "success", nextAttempt: null }]);
    expectFieldsOf(EndpointMessageOutSerializer, sent.body.data[0], "EndpointMessageOut");

    // The endpoints a message was sent to: the endpoint without its metadata (MessageEndpointOut has none).
    const endpoint = (await svixRaw(project, `${app}/endpoint/${endpointId}`)).body;
    expect(endpoint.metadata).toEqual({ owner: "billing" });
    expectFieldsOf(EndpointOutSerializer, endpoint, "EndpointOut");
    const { metadata: _none, ...endpointFields } = endpoint;
    const destinations = await svixRaw(project, `${app}/msg/${id}/endpoint`);
    expect(destinations.body.data).toStrictEqual([{ ...endpointFields, status: 0, statusText: "success", nextAttempt: null }]);
    expectFieldsOf(MessageEndpointOutSerializer, destinations.body.data[0], "MessageEndpointOut");

    expectFieldsOf(MessageOutSerializer, message, "MessageOut");
    expectFieldsOf(EventTypeOutSerializer, (await svixRaw(project, "/event-type/user.created")).body, "EventTypeOut");
    expectFieldsOf(EndpointStatsSerializer, (await svixRaw(project, `${app}/endpoint/${endpointId}/stats`)).body, "EndpointStats");
    expectFieldsOf(EndpointHeadersOutSerializer, (await svixRaw(project, `${app}/endpoint/${endpointId}/headers`)).body, "EndpointHeadersOut");
    const since = new Date(Date.now() - 60_000).toISOString();
    expectFieldsOf(RecoverOutSerializer, (await svixRaw(project, `${app}/endpoint/${endpointId}/recover`, { method: "POST", body: { since } })).body, "RecoverOut");
  });
});
