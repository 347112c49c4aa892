import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../http/context.js";
import { isValidWebhookSecret } from "../crypto/webhook-signatures.js";
import { openEndpointSecret, createEndpoint, deleteEndpoint, findEndpoint, listEndpoints, rotateEndpointSecret, updateEndpoint } from "../services/webhook-endpoints.js";
import { isUniqueViolation } from "../services/users.js";
import { webhookExample } from "../services/webhook-examples.js";
import { findMessage, listAttempts, listMessages, resendMessage } from "../services/webhook-messages.js";
import { writeWebhookMessage } from "../services/webhook-outbox.js";
import { PAYLOAD_VERSION_KEY, payloadVersionProblem, versionedPayloads } from "../services/webhook-payload-versions.js";
import { svixDeliveryReads } from "./webhooks-svix-delivery-reads.js";
import { svixEndpointOperations } from "./webhooks-svix-endpoint-ops.js";
import { authorisedProject, messageFilterFields, notFound, pageFields, parsed, svixError, type SvixContext } from "./webhooks-svix-shared.js";
import { renderAttempt, renderEndpoint, renderMessage, renderNewMessage } from "./webhooks-svix-shapes.js";

/**
 * A Svix-compatible subset of Svix's REST API (issue 18), so the official `svix` client works against Latchkey
 * when its `serverUrl` is `<Latchkey>/api/v1/webhooks/svix`: endpoints list, create, read, update (PUT and
 * PATCH), delete, secret read and rotate, send an example event; messages create, list and read; attempts list (by
 * message, by endpoint); resend; and (webhooks-svix-endpoint-ops.ts) event types, endpoint stats, recover,
 * replay-missing and endpoint headers; (webhooks-svix-delivery-reads.ts) the messages an endpoint was sent, the
 * endpoints a message was sent to, one attempt. Authorised by `Authorization: Bearer <token from POST /webhooks/svix-token>`;
 * the app id is the project id. Answers and errors have Svix's shapes (camelCase; `{ code, detail }`), not the
 * Stack protocol's: this API is Svix's. Not listed in the OpenAPI document of the Stack API for that reason.
 */

const webhookUrl = z
  .string()
  .max(2048)
  .refine((value) => URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol), "must be an http:// or https:// URL")
  // Credentials in the URL would be shown wherever the endpoint is (lists, the dashboard, logs of its deliveries):
  // refused, as an endpoint's secret headers (PUT …/headers) are the place for them.
  .refine((value) => !URL.canParse(value) || (new URL(value).username === "" && new URL(value).password === ""), "must not contain a username or password (give the endpoint an Authorization header instead)");
const uid = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[a-zA-Z0-9\-_.]+$/);
const endpointFields = {
  url: webhookUrl,
  description: z.string().max(1024).optional(),
  disabled: z.boolean().optional(),
  filterTypes: z.array(z.string().min(1).max(256)).min(1).nullable().optional(),
  uid: uid.nullable().optional(),
  // One entry is Latchkey's: which protocol version's shapes the endpoint's payloads carry (webhook-payload-versions.ts).
  metadata: z
    .record(z.string(), z.string())
    .superRefine((metadata, ctx) => {
      const problem = payloadVersionProblem(metadata);
      if (problem) ctx.addIssue({ code: "custom", path: [PAYLOAD_VERSION_KEY], message: problem });
    })
    .optional(),
  // Accepted and ignored, as a Svix server without these features would: they change nothing we deliver.
  channels: z.array(z.string()).nullable().optional(),
  version: z.number().int().optional(),
  rateLimit: z.number().int().nullable().optional(),
  throttleRate: z.number().int().nullable().optional(),
};
const endpointIn = z.object({
  ...endpointFields,
  secret: z
    .string()
    .refine(isValidWebhookSecret, "must be whsec_ followed by 24 to 75 bytes in base64")
    .nullable()
    .optional(),
});
const endpointUpdate = z.object(endpointFields);
const rotateIn = z.object({ key: endpointIn.shape.secret });
const endpointPatch = endpointUpdate.partial().extend({ url: webhookUrl.optional() });
const listQuery = z.object({
  ...pageFields,
  order: z.enum(["ascending", "descending"]).default("ascending"),
});

const messageListQuery = z.object({ ...pageFields, ...messageFilterFields });

const eventType = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[a-zA-Z0-9\-_.]+$/);
const messageIn = z.object({
  eventType,
  payload: z.record(z.string(), z.unknown()),
  eventId: z.string().min(1).max(256).nullable().optional(),
  // Accepted and ignored, as for endpoints: channels, tags, retention, scheduling and transformations.
  channels: z.array(z.string()).nullable().optional(),
  tags: z.array(z.string()).nullable().optional(),
});
const withContentQuery = z.object({
  with_content: z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .default(true),
});
const exampleIn = z.object({ eventType, exampleIndex: z.number().int().min(0).optional() });

const attemptListQuery = z.object({
  ...pageFields,
  endpoint_id: z.string().max(256).optional(),
  // Svix's MessageStatus: 0 success, 2 fail (an attempt is never pending or sending once recorded).
  status: z.coerce.number().int().min(0).max(4).optional(),
});

/** A uid taken by another endpoint of the project is a conflict, as in Svix. */
async function uniqueUid<T>(c: SvixContext, write: () => Promise<T>): Promise<T | Response> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, "webhook_endpoints_uid")) return svixError(c, 409, "conflict", "An endpoint with this uid already exists.");
    throw error;
  }
}

export function svixCompatibleRoutes(): Hono<AppEnv> {
  const svix = new Hono<AppEnv>();
  const base = "/api/v1/app/:app_id/endpoint";

  svix.get(base, async (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const query = parsed(c, listQuery, c.req.query());
    if ("error" in query) return query.error;
    const { endpoints, done } = await listEndpoints(c.get("deps").db, auth.projectId, {
      limit: query.data.limit,
      iterator: query.data.iterator,
      descending: query.data.order === "descending",
    });
    return c.json({ data: endpoints.map(renderEndpoint), iterator: endpoints.at(-1)?.id ?? null, prevIterator: null, done });
  });

  svix.post(base, async (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const body = parsed(c, endpointIn, c.get("body"));
    if ("error" in body) return body.error;
    const deps = c.get("deps");
    const created = await uniqueUid(c, () => createEndpoint(deps.db, deps.env, auth.projectId, { ...body.data, secret: body.data.secret ?? undefined }));
    return created instanceof Response ? created : c.json(renderEndpoint(created), 201);
  });

  svix.get(`${base}/:endpoint_id`, async (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const endpoint = await findEndpoint(c.get("deps").db, auth.projectId, c.req.param("endpoint_id"));
    return endpoint ? c.json(renderEndpoint(endpoint)) : notFound(c);
  });

  const update = (schema: typeof endpointUpdate | typeof endpointPatch) => async (c: SvixContext) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const body = parsed(c, schema, c.get("body"));
    if ("error" in body) return body.error;
    const updated = await uniqueUid(c, () => updateEndpoint(c.get("deps").db, auth.projectId, c.req.param("endpoint_id")!, body.data));
    if (updated instanceof Response) return updated;
    return updated ? c.json(renderEndpoint(updated)) : notFound(c);
  };
  svix.put(`${base}/:endpoint_id`, update(endpointUpdate));
  svix.patch(`${base}/:endpoint_id`, update(endpointPatch));

  svix.delete(`${base}/:endpoint_id`, async (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const deleted = await deleteEndpoint(c.get("deps").db, auth.projectId, c.req.param("endpoint_id"));
    return deleted ? c.body(null, 204) : notFound(c);
  });

  svix.get(`${base}/:endpoint_id/secret`, async (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const { db, env } = c.get("deps");
    const endpoint = await findEndpoint(db, auth.projectId, c.req.param("endpoint_id"));
    if (!endpoint) return notFound(c);
    const key = openEndpointSecret(env, endpoint.id, { sealed: endpoint.sealed_secret, keyId: endpoint.sealing_key_id });
    // Sealed under a server secret this server no longer has: the operator removed it from LATCHKEY_PREVIOUS_SERVER_SECRETS.
    if (!key) throw new Error(`webhook endpoint ${endpoint.id}: secret sealed with an unknown server secret`);
    return c.json({ key });
  });

  svix.post("/api/v1/app/:app_id/msg", async (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const query = parsed(c, withContentQuery, c.req.query());
    if ("error" in query) return query.error;
    const body = parsed(c, messageIn, c.get("body"));
    if ("error" in body) return body.error;
    const written = await writeWebhookMessage(c.get("deps").db, auth.projectId, body.data);
    return c.json(renderNewMessage(written.id, written.createdAt, body.data, query.data.with_content), 202);
  });

  svix.post(`${base}/:endpoint_id/send-example`, async (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const body = parsed(c, exampleIn, c.get("body"));
    if ("error" in body) return body.error;
    const endpoint = await findEndpoint(c.get("deps").db, auth.projectId, c.req.param("endpoint_id")!);
    if (!endpoint) return notFound(c);
    const example = webhookExample(body.data.eventType);
    if (!example) return svixError(c, 404, "not_found", `No example for event type ${body.data.eventType}`);
    // Kept in both versions' shapes, as events are: replay-missing may send it to another endpoint later.
    const { payload, newer } = versionedPayloads(example.type, example.data);
    const message = { eventType: example.type, payload };
    const written = await writeWebhookMessage(c.get("deps").db, auth.projectId, { ...message, newerPayload: newer ?? undefined, endpointId: endpoint.id });
    return c.json(renderNewMessage(written.id, written.createdAt, message, true), 202);
  });

  svix.get("/api/v1/app/:app_id/msg", async (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const query = parsed(c, messageListQuery, c.req.query());
    if ("error" in query) return query.error;
    const { limit, iterator, event_types, before, after, with_content } = query.data;
    const { messages, done } = await listMessages(c.get("deps").db, auth.projectId, { limit, iterator, eventTypes: event_types, before, after });
    return c.json({ data: messages.map((m) => renderMessage(m, with_content)), iterator: messages.at(-1)?.id ?? null, prevIterator: null, done });
  });

  svix.get("/api/v1/app/:app_id/msg/:msg_id", async (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const query = parsed(c, z.object({ with_content: messageListQuery.shape.with_content }), c.req.query());
    if ("error" in query) return query.error;
    const message = await findMessage(c.get("deps").db, auth.projectId, c.req.param("msg_id"));
    return message ? c.json(renderMessage(message, query.data.with_content)) : notFound(c);
  });

  svix.post(`${base}/:endpoint_id/secret/rotate`, async (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const body = parsed(c, rotateIn, c.get("body"));
    if ("error" in body) return body.error;
    const { db, env } = c.get("deps");
    const rotated = await rotateEndpointSecret(db, env, auth.projectId, c.req.param("endpoint_id")!, body.data.key ?? undefined);
    return rotated ? c.body(null, 204) : notFound(c);
  });

  const attempts = (by: "msg" | "endpoint") => async (c: SvixContext) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const query = parsed(c, attemptListQuery, c.req.query());
    if ("error" in query) return query.error;
    const { db } = c.get("deps");
    const filter = by === "msg" ? { messageId: c.req.param("msg_id"), endpointId: query.data.endpoint_id } : { endpointId: (await findEndpoint(db, auth.projectId, c.req.param("endpoint_id")!))?.id };
    if (!filter.messageId && !filter.endpointId) return notFound(c);
    const succeeded = query.data.status === undefined ? undefined : query.data.status === 0;
    const { attempts: rows, done } = await listAttempts(db, auth.projectId, filter, { limit: query.data.limit, iterator: query.data.iterator, succeeded });
    return c.json({ data: rows.map(renderAttempt), iterator: rows.at(-1)?.id ?? null, prevIterator: null, done });
  };
  svix.get("/api/v1/app/:app_id/attempt/msg/:msg_id", attempts("msg"));
  svix.get("/api/v1/app/:app_id/attempt/endpoint/:endpoint_id", attempts("endpoint"));

  svixEndpointOperations(svix);
  svixDeliveryReads(svix);

  svix.post("/api/v1/app/:app_id/msg/:msg_id/endpoint/:endpoint_id/resend", async (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const { db } = c.get("deps");
    const endpoint = await findEndpoint(db, auth.projectId, c.req.param("endpoint_id"));
    const resent = endpoint && (await resendMessage(db, auth.projectId, c.req.param("msg_id"), endpoint.id));
    // Accepted: the attempt goes out shortly; Svix answers an empty JSON object.
    return resent ? c.json({}, 202) : notFound(c);
  });

  return svix;
}
