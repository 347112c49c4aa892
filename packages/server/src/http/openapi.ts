import type { KnownErrorClass } from "@latchkey/protocol/errors";
import { z } from "zod";
import { PIPELINE_ERRORS, type Route, type RequestSchemas } from "./route.js";

/**
 * The OpenAPI 3.1 document of the API, built from the route declarations (http/route.ts) with zod's own
 * JSON Schema output (draft 2020-12, which OpenAPI 3.1 uses). Served at `/api/v1/openapi.json` and
 * rendered at `/api/v1/docs`.
 */

type JsonSchema = Record<string, unknown>;

const ACCESS_HEADERS = {
  client: "PublishableClientKey",
  server: "SecretServerKey",
  admin: "SuperSecretAdminKey",
} as const;

const SECURITY_SCHEMES = {
  ProjectId: { type: "apiKey", in: "header", name: "x-stack-project-id", description: "The project's id (`internal` for the server's own project)." },
  AccessType: { type: "apiKey", in: "header", name: "x-stack-access-type", description: "`client`, `server` or `admin`: which key the request carries." },
  PublishableClientKey: { type: "apiKey", in: "header", name: "x-stack-publishable-client-key", description: "Client access (browsers and apps); safe to publish." },
  SecretServerKey: { type: "apiKey", in: "header", name: "x-stack-secret-server-key", description: "Server access; keep it on your servers." },
  SuperSecretAdminKey: { type: "apiKey", in: "header", name: "x-stack-super-secret-admin-key", description: "Admin access to the project's configuration." },
  AdminAccessToken: { type: "apiKey", in: "header", name: "x-stack-admin-access-token", description: "Admin access as a project owner: an access token of the `internal` project." },
  AccessToken: { type: "apiKey", in: "header", name: "x-stack-access-token", description: "The signed-in user's access token (a JWT)." },
} as const;

const KNOWN_ERROR_BODY = {
  type: "object",
  description: "A known error: its code is also in the `x-stack-known-error` response header.",
  properties: {
    code: { type: "string" },
    error: { type: "string", description: "A human-readable message." },
    details: { type: "object", description: "Structured facts about the error; absent for errors without any." },
  },
  required: ["code", "error"],
} as const;

export interface OpenApiInfo {
  version: string;
  serverUrl: string;
}

export function buildOpenApiDocument(routes: readonly Route[], info: OpenApiInfo): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    (paths[path] ??= {})[route.method] = operation(route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Latchkey API",
      version: info.version,
      description:
        "Latchkey speaks Stack Auth's REST API v1: the same routes, headers, bodies and known errors. " +
        "Every route is also served under `/api/latest`. Unknown properties in a body, query or path are refused with `SCHEMA_ERROR`.",
    },
    servers: [{ url: info.serverUrl }],
    components: { securitySchemes: SECURITY_SCHEMES },
    paths,
  };
}

/** `/users/:user_id` → `/users/{user_id}` (a Hono pattern's regular expression, if any, is dropped). */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");
}

function operation(route: Route): Record<string, unknown> {
  const parts: RequestSchemas = route.request ?? {};
  const parameters = [...parametersOf(parts.params, "path"), ...parametersOf(parts.query, "query")];
  const clientOnly = route.clientRequest ? parametersOf(route.clientRequest.query, "query").filter((p) => !parameters.some((q) => q.name === p.name)) : [];
  return {
    operationId: operationId(route),
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [...route.tags],
    ...(route.deprecated ? { deprecated: true } : {}),
    "x-access-types": route.access === "public" ? [] : [...route.access],
    security: securityOf(route),
    parameters: [...parameters, ...clientOnly],
    ...requestBodyOf(route),
    responses: responsesOf(route),
  };
}

function operationId(route: Route): string {
  const words = route.path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "by_$1").split(/[^A-Za-z0-9]+/).filter(Boolean);
  return [route.method, ...words].join("_");
}

function securityOf(route: Route): Array<Record<string, string[]>> {
  if (route.access === "public") return [];
  const alternatives = route.access.map((type) => ({ ProjectId: [], AccessType: [], [ACCESS_HEADERS[type]]: [] }));
  // An owner's admin access token stands for the project's keys (see http/auth.ts).
  alternatives.push({ ProjectId: [], AccessType: [], AdminAccessToken: [] });
  if (route.requiresUser) return alternatives.map((alternative) => ({ ...alternative, AccessToken: [] }));
  return alternatives;
}

function parametersOf(schema: z.ZodObject | undefined, location: "path" | "query"): Array<Record<string, unknown>> {
  if (!schema) return [];
  const json = toJsonSchema(schema, "input");
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === "path" || required.has(name),
    ...(typeof property.description === "string" ? { description: property.description } : {}),
    schema: property,
  }));
}

function requestBodyOf(route: Route): Record<string, unknown> {
  const server = route.request?.body;
  const client = route.clientRequest?.body;
  if (!server && !client) return {};
  const schemas = [server, client].filter((s, i, all): s is z.ZodType => s !== undefined && all.indexOf(s) === i);
  const schema =
    schemas.length === 1
      ? toJsonSchema(schemas[0]!, "input")
      : { anyOf: [{ title: "Server and admin callers", ...toJsonSchema(server!, "input") }, { title: "Client callers", ...toJsonSchema(client!, "input") }] };
  const gzip = route.gzipJsonBody
    ? { "application/octet-stream": { schema: { type: "string", contentEncoding: "gzip", description: "The same JSON, gzip-compressed." } } }
    : {};
  return { requestBody: { required: !(server ?? client)!.safeParse(undefined).success, content: { "application/json": { schema }, ...gzip } } };
}

function responsesOf(route: Route): Record<string, unknown> {
  const { response } = route;
  const contentType = response.contentType ?? "application/json";
  const responses: Record<string, unknown> = {
    [String(response.status ?? 200)]: {
      description: response.description,
      content: { [contentType]: { schema: toJsonSchema(response.schema, "output") } },
    },
  };
  const errors = [...(route.access === "public" ? [] : PIPELINE_ERRORS), ...(route.errors ?? [])];
  const byStatus = new Map<number, KnownErrorClass<any, any>[]>();
  for (const error of errors) {
    const list = byStatus.get(error.status) ?? [];
    if (!list.includes(error)) list.push(error);
    byStatus.set(error.status, list);
  }
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const codes = list.map((error) => error.code);
    responses[String(status)] = {
      description: `Known errors: ${codes.join(", ")}.`,
      headers: { "x-stack-known-error": { description: "The error's code.", schema: { type: "string", enum: codes } } },
      content: { "application/json": { schema: { ...KNOWN_ERROR_BODY, properties: { ...KNOWN_ERROR_BODY.properties, code: { type: "string", enum: codes } } } } },
    };
  }
  return responses;
}

function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  return json;
}
