import type { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../http/context.js";
import { webhookId } from "../services/webhook-outbox.js";
import { findEndpoint } from "../services/webhook-endpoints.js";
import { headerProblem, presentHeaders, readEndpointHeaders, writeEndpointHeaders } from "../services/webhook-endpoint-headers.js";
import { endpointStats, recoverFailedDeliveries, replayMissingMessages } from "../services/webhook-endpoint-recovery.js";
import { WEBHOOK_EVENT_TYPES } from "../services/webhook-event-types.js";
import { authorisedProject, notFound, parsed, type SvixContext, pageFields } from "./webhooks-svix-shared.js";

/**
 * The Svix-compatible API's routes beyond endpoint and message CRUD (routes/webhooks-svix.ts): the event type
 * list, an endpoint's stats, recover (send its failed messages again), replay-missing (send it the messages it
 * never got) and its own headers. Same token, same answer and error shapes.
 */

// Event types have no creation time of their own in Latchkey: the day they were first offered.
const EVENT_TYPES_SINCE = new Date(Date.UTC(2026, 0, 1)).toISOString();

function renderEventType(name: string, description: string) {
  return { name, description, archived: false, deprecated: false, featureFlag: null, featureFlags: null, groupName: null, schemas: null, createdAt: EVENT_TYPES_SINCE, updatedAt: EVENT_TYPES_SINCE };
}

const eventTypeListQuery = z.object({
  ...pageFields,
  order: z.enum(["ascending", "descending"]).default("ascending"),
  // Accepted and ignored: no event type is archived, and there are no schemas to leave out.
  include_archived: z.enum(["true", "false"]).optional(),
  with_content: z.enum(["true", "false"]).optional(),
});

const windowQuery = z.object({ since: z.coerce.date().optional(), until: z.coerce.date().optional() });
const windowBody = z.object({ since: z.coerce.date(), until: z.coerce.date().nullable().optional() });

const headerMap = z.record(z.string(), z.string()).superRefine((headers, ctx) => {
  for (const [name, value] of Object.entries(headers)) {
    const problem = headerProblem(name, value);
    if (problem) ctx.addIssue({ code: "custom", path: [name], message: `${name} ${problem}` });
  }
});
const headersIn = z.object({ headers: headerMap });
const headersPatchIn = z.object({ headers: headerMap, deleteHeaders: z.array(z.string().max(256)).optional() });

/** Svix answers these operations with a background task; Latchkey has done the work when it answers. */
function finishedTask(task: "endpoint.recover" | "endpoint.replay") {
  return { id: webhookId("qtask"), status: "finished", task, updatedAt: new Date().toISOString() };
}

export function svixEndpointOperations(svix: Hono<AppEnv>): void {
  const endpointPath = "/api/v1/app/:app_id/endpoint/:endpoint_id";

  svix.get("/api/v1/event-type", (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const query = parsed(c, eventTypeListQuery, c.req.query());
    if ("error" in query) return query.error;
    const { limit, iterator, order } = query.data;
    let names = Object.keys(WEBHOOK_EVENT_TYPES).sort();
    if (order === "descending") names.reverse();
    if (iterator) names = names.filter((name) => (order === "ascending" ? name > iterator : name < iterator));
    const page = names.slice(0, limit);
    const data = page.map((name) => renderEventType(name, WEBHOOK_EVENT_TYPES[name as keyof typeof WEBHOOK_EVENT_TYPES]));
    return c.json({ data, iterator: page.at(-1) ?? null, prevIterator: null, done: names.length <= limit });
  });

  svix.get("/api/v1/event-type/:event_type_name", (c) => {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth.error;
    const name = c.req.param("event_type_name");
    return Object.hasOwn(WEBHOOK_EVENT_TYPES, name) ? c.json(renderEventType(name, WEBHOOK_EVENT_TYPES[name as keyof typeof WEBHOOK_EVENT_TYPES])) : notFound(c);
  });

  /** The endpoint the path names in the token's project, or the error answer. */
  async function endpointOf(c: SvixContext): Promise<{ projectId: string; endpointId: string } | { error: Response }> {
    const auth = authorisedProject(c);
    if ("error" in auth) return auth;
    const endpoint = await findEndpoint(c.get("deps").db, auth.projectId, c.req.param("endpoint_id")!);
    return endpoint ? { projectId: auth.projectId, endpointId: endpoint.id } : { error: notFound(c) };
  }

  svix.get(`${endpointPath}/stats`, async (c) => {
    const target = await endpointOf(c);
    if ("error" in target) return target.error;
    const query = parsed(c, windowQuery, c.req.query());
    if ("error" in query) return query.error;
    return c.json(await endpointStats(c.get("deps").db, target.endpointId, query.data));
  });

  svix.post(`${endpointPath}/recover`, async (c) => {
    const target = await endpointOf(c);
    if ("error" in target) return target.error;
    const body = parsed(c, windowBody, c.get("body"));
    if ("error" in body) return body.error;
    await recoverFailedDeliveries(c.get("deps").db, target.endpointId, { since: body.data.since, until: body.data.until ?? undefined });
    return c.json(finishedTask("endpoint.recover"), 202);
  });

  svix.post(`${endpointPath}/replay-missing`, async (c) => {
    const target = await endpointOf(c);
    if ("error" in target) return target.error;
    const body = parsed(c, windowBody, c.get("body"));
    if ("error" in body) return body.error;
    await replayMissingMessages(c.get("deps").db, target.projectId, target.endpointId, { since: body.data.since, until: body.data.until ?? undefined });
    return c.json(finishedTask("endpoint.replay"), 202);
  });

  svix.get(`${endpointPath}/headers`, async (c) => {
    const target = await endpointOf(c);
    if ("error" in target) return target.error;
    return c.json(presentHeaders(await readEndpointHeaders(c.get("deps").db, target.endpointId)));
  });

  svix.put(`${endpointPath}/headers`, async (c) => {
    const target = await endpointOf(c);
    if ("error" in target) return target.error;
    const body = parsed(c, headersIn, c.get("body"));
    if ("error" in body) return body.error;
    await writeEndpointHeaders(c.get("deps").db, target.endpointId, { replace: body.data.headers });
    return c.body(null, 204);
  });

  svix.patch(`${endpointPath}/headers`, async (c) => {
    const target = await endpointOf(c);
    if ("error" in target) return target.error;
    const body = parsed(c, headersPatchIn, c.get("body"));
    if ("error" in body) return body.error;
    await writeEndpointHeaders(c.get("deps").db, target.endpointId, { set: body.data.headers, remove: body.data.deleteHeaders ?? [] });
    return c.body(null, 204);
  });
}
