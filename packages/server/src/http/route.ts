import type { Context, Hono } from "hono";
import { KnownErrors, type KnownErrorClass } from "@latchkey/protocol/errors";
import { z } from "zod";
import { requireAccess } from "./auth.js";
import type { AccessType, AppEnv, RequestAuth } from "./context.js";
import { validateRequest } from "./validate.js";
import { inflateJsonBody } from "./body.js";
import { beginWork } from "./drain.js";
import { answerForDialect } from "@latchkey/protocol/schemas";
import { jsonAnswer, RenderedOnce } from "./answer.js";

/**
 * One declaration per route (issue 13): method, path, who may call it, the request and response schemas and
 * the known errors it raises. From it come the validation of each request, the handler's types, and the
 * route's entry in the OpenAPI document (http/openapi.ts), so the three cannot drift apart.
 */

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** The validated parts of a request. Query and path objects are made strict: unknown keys are a SCHEMA_ERROR. */
export interface RequestSchemas {
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives: the caller (null only on public routes) and the parsed request parts. */
export interface RouteInput<Req extends RequestSchemas, Auth> {
  auth: Auth;
  params: Output<Req["params"]>;
  query: Output<Req["query"]>;
  body: Output<Req["body"]>;
}

export interface ResponseDeclaration<S extends z.ZodType = z.ZodType> {
  /** Status of a successful answer (default 200). */
  status?: number;
  description: string;
  /** JSON body schema, or a text body when `contentType` says so. */
  schema: S;
  contentType?: "application/json" | "text/plain" | "text/html" | "application/javascript" | "image/*";
}

type AccessRule = readonly AccessType[] | "public";
type AuthFor<A extends AccessRule> = A extends "public" ? RequestAuth | null : RequestAuth;

export interface RouteDeclaration<A extends AccessRule = AccessRule, Req extends RequestSchemas = RequestSchemas, ClientReq extends RequestSchemas = Req, Res extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** Hono path pattern below `/api/v1` (`/users/:user_id`). */
  path: string;
  summary: string;
  description?: string;
  /** Groups in the API reference. */
  tags: readonly string[];
  /** Access types that may call; `public` routes need no x-stack headers. */
  access: A;
  /**
   * The request needs a signed-in user. Without one the protocol answers SCHEMA_ERROR
   * `auth.user must be defined` (its request schema requires the user), not an authentication error.
   */
  requiresUser?: boolean;
  request?: Req;
  /** What a client sends where it may write less than a server (PATCH /users/me): used for client callers. */
  clientRequest?: ClientReq;
  response: ResponseDeclaration<Res>;
  /** Known errors the route raises itself (the pipeline's own, such as access errors, are implied). */
  errors?: readonly KnownErrorClass<any, any>[];
  /** Marks a route kept for old clients. */
  deprecated?: boolean;
  /**
   * The JSON body may also come gzip-compressed as `application/octet-stream`, as 2.8.108's analytics
   * batches do; it is inflated (http/body.ts) before validation. Other routes see such a body as bytes.
   */
  gzipJsonBody?: boolean;
  /** Query parameters not in the schema are accepted (OAuth callbacks carry whatever the provider adds). */
  looseQuery?: boolean;
  /**
   * Returns the body (sent as JSON with the declared status), one rendered once for many requests
   * (`renderOnce`, http/answer.ts), or a whole `Response` (text, redirects,
   * extra headers).
   */
  handler(c: Context<AppEnv>, input: RouteInput<Req | ClientReq, AuthFor<A>>): Promise<z.input<Res> | Response | RenderedOnce> | z.input<Res> | Response | RenderedOnce;
}

/** Routes every access type may call (most of the protocol's). */
export const ANY_ACCESS = ["client", "server", "admin"] as const;

/** What a single-use code (link or typed) can be refused with by the routes that consume one. */
export const VERIFICATION_CODE_ERRORS: readonly KnownErrorClass<any, any>[] = [
  KnownErrors.VerificationCodeNotFound,
  KnownErrors.VerificationCodeExpired,
  KnownErrors.VerificationCodeAlreadyUsed,
  KnownErrors.VerificationCodeMaxAttemptsReached,
];

/** A declaration with its types erased, as lists of routes hold it. */
export type Route = RouteDeclaration<AccessRule, RequestSchemas, RequestSchemas, z.ZodType>;

/** Declares a route; the identity function that lets TypeScript infer the handler's types from the schemas. */
export function defineRoute<const A extends AccessRule, Req extends RequestSchemas = {}, ClientReq extends RequestSchemas = Req, Res extends z.ZodType = z.ZodType>(
  declaration: RouteDeclaration<A, Req, ClientReq, Res>,
): Route {
  return declaration as unknown as Route;
}

const NO_QUERY = z.strictObject({});

/** The query schema as the route checks it: strict, so that `?extra=1` is refused as the protocol does. */
export function strictQuery(route: Route, client: boolean): z.ZodObject {
  const query = (client && route.clientRequest ? route.clientRequest.query : route.request?.query) ?? NO_QUERY;
  return route.looseQuery ? query.loose() : query.strict();
}

/** Mounts each route on `app` with its access rule and request validation in front of the handler. */
export function mountRoutes(app: Hono<AppEnv>, routes: readonly Route[]): void {
  for (const route of routes) {
    // Built once per route and caller kind: zod compiles a schema on its first parse, so a schema made per
    // request would be compiled per request.
    const schemas = new Map<boolean, RequestSchemas>();
    const schemasFor = (auth: RequestAuth | null): RequestSchemas => {
      const client = auth?.type === "client";
      let built = schemas.get(client);
      if (!built) {
        const parts = (client && route.clientRequest) || route.request || {};
        built = { params: parts.params?.strict(), query: strictQuery(route, client), body: parts.body };
        schemas.set(client, built);
      }
      return built;
    };
    app.on(route.method.toUpperCase(), route.path, async (c) => {
      const auth = route.access === "public" ? c.get("auth") : requireAccess(c, route.access);
      if (route.gzipJsonBody) c.set("body", await inflateJsonBody(c.get("body")));
      const parsed = validateRequest(c, schemasFor(auth), { requireUser: route.requiresUser === true && !auth?.user });
      // From here the request may change things: a shutdown finishes it and answers its result (http/drain.ts).
      beginWork(c.req.raw);
      // The headers the handler sets with c.header() go into its JSON answer (http/answer.ts).
      const honoHeader = c.header;
      let extra: [string, string][] | undefined;
      let unusual = false;
      c.header = (name, value, options) => {
        if (value === undefined || options?.append || name.toLowerCase() === "set-cookie") unusual = true;
        else (extra ??= []).push([name.toLowerCase(), value]);
        honoHeader(name, value, options);
      };
      let result: Awaited<ReturnType<Route["handler"]>>;
      try {
        result = await route.handler(c, { auth: auth as RequestAuth, ...parsed } as RouteInput<RequestSchemas, RequestAuth>);
      } finally {
        c.header = honoHeader;
      }
      if (result instanceof Response) return result;
      const status = route.response.status ?? 200;
      const value = result instanceof RenderedOnce ? result.value : result;
      if (c.get("deps").env.checkResponses) checkResponse(route, value);
      // Handlers answer with every field of both protocol versions; the request's version gets its own.
      const dialect = c.get("dialect");
      // A HEAD request's answer is made from the GET one's by Hono, and a header deleted or appended is left to
      // Hono too: both keep the answer Hono builds (the pipeline then adds its headers one by one).
      if (unusual || c.req.method === "HEAD") return c.json(answerForDialect(route.response.schema, value, dialect) as object, status as 200);
      // (JSON.stringify gives undefined for undefined, whatever its declared type says.)
      const json: string | undefined =
        result instanceof RenderedOnce
          ? result.jsonFor(dialect, (v) => JSON.stringify(answerForDialect(route.response.schema, v, dialect)))
          : JSON.stringify(answerForDialect(route.response.schema, value, dialect));
      // A handler that answers nothing (undefined) gets what Hono makes of it, as before.
      if (json === undefined) return c.json(undefined as unknown as object, status as 200);
      return jsonAnswer(c, json, status, extra && dedupe(extra));
    });
  }
}

/** The last value of each name, as repeated `c.header()` calls leave it. */
function dedupe(headers: [string, string][]): [string, string][] {
  return headers.length === 1 ? headers : [...new Map(headers)];
}

/**
 * Tests run the server with LATCHKEY_CHECK_RESPONSES=true: every JSON answer must match its declared schema,
 * so the OpenAPI document describes what the server really sends. A mismatch is a server bug (a 500).
 */
function checkResponse(route: Route, body: unknown): void {
  const checked = route.response.schema.safeParse(body);
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) => `  - ${issue.path.join(".") || "(root)"}: ${issue.message}`).join("\n");
    throw new ResponseSchemaMismatch(`Response of ${route.method.toUpperCase()} ${route.path} does not match its declared schema:\n${problems}`);
  }
}

export class ResponseSchemaMismatch extends Error {}

/** Known errors every authenticated route can answer before its handler runs. */
export const PIPELINE_ERRORS: readonly KnownErrorClass<any, any>[] = [
  KnownErrors.SchemaError,
  KnownErrors.AccessTypeRequired,
  KnownErrors.InsufficientAccessType,
  KnownErrors.InvalidAccessType,
  KnownErrors.AccessTypeWithoutProjectId,
  KnownErrors.CurrentProjectNotFound,
  KnownErrors.InvalidPublishableClientKey,
  KnownErrors.InvalidSecretServerKey,
  KnownErrors.InvalidSuperSecretAdminKey,
];
