import type { Context } from "hono";
import { RESPONSE_HEADER_PREFIXES, type Dialect } from "@latchkey/protocol/dialects";
import type { AppEnv } from "./context.js";
import { corsHeaders } from "./headers.js";
import { securityHeaderValues } from "./security-headers.js";

/** What an API answer's Cache-Control says unless its route says otherwise (app.ts). */
export const NO_STORE = "no-store, max-age=0";

/**
 * The JSON answer of a declared route (http/route.ts) with, at once, every header the pipeline would otherwise add
 * one at a time on its way out (CORS, the security headers, Cache-Control, the request id): one plain header object
 * instead of a fetch `Headers` that each middleware sets a few names on, validates and the adapter sorts back into an
 * object. The bytes on the wire are the same: names in the order a `Headers` lists them (sorted), then
 * `Content-Length`, as the adapter writes it. The middlewares that add those headers leave a complete answer be
 * (`isCompleteAnswer`). `extra` are the headers the handler set with `c.header()` (lowercase names, set once each).
 */
export function jsonAnswer(c: Context<AppEnv>, json: string, status: number, extra: readonly (readonly [string, string])[] | undefined): Response {
  const dialect = c.get("dialect");
  const https = c.get("deps").env.publicUrl.startsWith("https://");
  const requestId = c.get("requestId");
  let entries = templateFor(dialect, https);
  if (extra) entries = withExtra(entries, extra);
  const headers: Record<string, string> = {};
  for (const [name, value] of entries) headers[name] = value ?? requestId;
  headers["Content-Length"] = String(Buffer.byteLength(json));
  const response = new Response(json, { status, headers }) as CompleteAnswer;
  // On the response itself rather than in a WeakMap: one per request would make every garbage collection walk them.
  response[COMPLETE] = { json, status, entries, requestId };
  return response;
}

/** Whether `response` came from `jsonAnswer`: its headers are all there already. */
export function isCompleteAnswer(response: Response): boolean {
  return (response as CompleteAnswer)[COMPLETE] !== undefined;
}

/**
 * A complete answer that also says `Connection: close` (http/drain.ts, while shutting down), with the header where a
 * `Headers` would list it; any other response gets the header set on it.
 */
export function closingConnection(response: Response): Response {
  const answer = (response as CompleteAnswer)[COMPLETE];
  if (!answer) {
    response.headers.set("connection", "close");
    return response;
  }
  const entries = withExtra(answer.entries, [["connection", "close"]]);
  const headers: Record<string, string> = {};
  for (const [name, value] of entries) headers[name] = value ?? answer.requestId;
  headers["Content-Length"] = String(Buffer.byteLength(answer.json));
  return new Response(answer.json, { status: answer.status, headers });
}

/** Name and value of each header, sorted by name; a null value stands for the request id. */
type Entries = readonly (readonly [string, string | null])[];

const COMPLETE = Symbol("complete answer");
type CompleteAnswer = Response & { [COMPLETE]?: { json: string; status: number; entries: Entries; requestId: string } };

const templates = new Map<string, Entries>();

/** The headers of a JSON answer in `dialect`, as the pipeline's middlewares (app.ts) add them. */
function templateFor(dialect: Dialect, https: boolean): Entries {
  const key = `${dialect} ${https}`;
  let entries = templates.get(key);
  if (!entries) {
    const values: Record<string, string | null> = {
      "content-type": "application/json",
      ...corsHeaders(dialect),
      ...securityHeaderValues(https),
      "cache-control": NO_STORE,
    };
    for (const prefix of RESPONSE_HEADER_PREFIXES[dialect]) values[`${prefix}request-id`] = null;
    entries = sorted(Object.entries(values));
    templates.set(key, entries);
  }
  return entries;
}

/**
 * The route's own headers merged in as the middlewares would treat them: its Cache-Control and Referrer-Policy are
 * kept (the pipeline sets those only when absent), every other header the pipeline sets replaces the route's.
 */
function withExtra(entries: Entries, extra: readonly (readonly [string, string | null])[]): Entries {
  const merged = new Map(entries);
  for (const [name, value] of extra) {
    if (!merged.has(name) || name === "cache-control" || name === "referrer-policy") merged.set(name, value);
  }
  return sorted([...merged]);
}

function sorted(entries: (readonly [string, string | null])[]): Entries {
  return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * An answer rendered once per version of what it shows and reused while that stays the same (the signed-in user at
 * `GET /users/me`, from the user cache): http/route.ts sends its JSON, made once per protocol version, instead of
 * rendering and serialising the same object on every request. `value` is what the handler would have returned.
 */
export class RenderedOnce {
  private readonly json: Partial<Record<Dialect, string>> = {};
  constructor(readonly value: unknown) {}

  /** The JSON for `dialect`, made by `serialize` the first time. */
  jsonFor(dialect: Dialect, serialize: (value: unknown) => string): string {
    return (this.json[dialect] ??= serialize(this.value));
  }
}

const rendered = new WeakMap<object, Map<object, Map<string, RenderedOnce>>>();

/**
 * The answer `render()` makes from `source` (an object that is replaced, never changed, when what it holds changes:
 * a cached user record), for `context` (an object cached likewise: the project's restriction policy) and `variant`
 * (the caller's shape), made once and reused for as long as both objects live.
 */
export function renderOnce(source: object, context: object, variant: string, render: () => unknown): RenderedOnce {
  let byContext = rendered.get(source);
  if (!byContext) rendered.set(source, (byContext = new Map()));
  let byVariant = byContext.get(context);
  if (!byVariant) byContext.set(context, (byVariant = new Map()));
  let answer = byVariant.get(variant);
  if (!answer) byVariant.set(variant, (answer = new RenderedOnce(render())));
  return answer;
}
