import type { Context } from "hono";
import { DEFAULT_DIALECT, REQUEST_HEADER_PREFIX, RESPONSE_HEADER_PREFIXES, type Dialect } from "@latchkey/protocol/dialects";
import { KnownErrors } from "@latchkey/protocol/errors";
import type { AppEnv } from "./context.js";

/**
 * The protocol version a request is answered in (issue 14): `x-hexclave-*` headers → 2.8.108, `x-stack-*`
 * → 2.8.41, none → 2.8.41. Chosen once, by the first middleware; everything else reads `c.get("dialect")`.
 * `named`: whether the headers named a version at all (the access tokens a request gets depend on it).
 */
export function dialectOf(headerNames: Iterable<string>): { dialect: Dialect; mixed: boolean; named: boolean } {
  let stack = false;
  let hexclave = false;
  for (const name of headerNames) {
    if (name.startsWith(REQUEST_HEADER_PREFIX["2.8.41"])) stack = true;
    else if (name.startsWith(REQUEST_HEADER_PREFIX["2.8.108"])) hexclave = true;
  }
  if (hexclave) return { dialect: "2.8.108", mixed: stack, named: true };
  return { dialect: DEFAULT_DIALECT, mixed: false, named: stack };
}

/**
 * The request's header names, lowercase. From Node's own parsed headers when the request came through the Node
 * adapter: listing a fetch `Headers` makes the adapter build one from every raw header, which every later lookup
 * then goes through (a twentieth of the CPU of `GET /users/me`).
 */
export function requestHeaderNames(c: Context<AppEnv>): Iterable<string> {
  const incoming = (c.env as { incoming?: { headers?: Record<string, unknown> } } | undefined)?.incoming;
  return incoming?.headers ? Object.keys(incoming.headers) : c.req.raw.headers.keys();
}

/** A request mixing both versions' headers is refused rather than read half one way, half the other. */
export function mixedDialectsError(c: Context<AppEnv>): InstanceType<typeof KnownErrors.SchemaError> {
  return new KnownErrors.SchemaError(
    `Request validation failed on ${c.req.method} ${new URL(c.req.url).pathname}:\n` +
      "  - headers must use one prefix: x-stack-* (SDK 2.8.41) or x-hexclave-* (SDK 2.8.108), not both",
  );
}

/** A protocol request header by its name without prefix (`access-token`), under the request's dialect. */
export function protocolHeader(c: Context<AppEnv>, name: string): string | undefined {
  return requestHeader(c, REQUEST_HEADER_PREFIX[c.get("dialect")] + name) || undefined;
}

/**
 * A request header by its lowercase name, as `c.req.header()` gives it. Read from Node's parsed headers where the
 * request came through the Node adapter (the authentication reads a dozen of these per request): what the adapter's
 * lookup returns for such a name, without its checks of the name.
 */
export function requestHeader(c: Context<AppEnv>, lowercaseName: string): string | undefined {
  const incoming = (c.env as { incoming?: { headers?: Record<string, string | string[] | undefined> } } | undefined)?.incoming;
  const value = incoming?.headers?.[lowercaseName];
  if (typeof value === "string" && isPlainHeaderValue(value)) return value;
  if (incoming?.headers && value === undefined) return undefined;
  return c.req.header(lowercaseName);
}

/** A value the adapter returns as it is: no surrounding whitespace to trim, nothing it refuses. */
function isPlainHeaderValue(value: string): boolean {
  if (value === "") return true;
  return !isHttpWhitespace(value.charCodeAt(0)) && !isHttpWhitespace(value.charCodeAt(value.length - 1)) && !FORBIDDEN_IN_VALUE.test(value);
}

const FORBIDDEN_IN_VALUE = /[\0\r\n]/;
function isHttpWhitespace(code: number): boolean {
  return code === 9 || code === 10 || code === 13 || code === 32;
}

/** The request header's full name in the request's dialect, for messages that name it. */
export function protocolHeaderName(c: Context<AppEnv>, name: string): string {
  return REQUEST_HEADER_PREFIX[c.get("dialect")] + name;
}

/** Sets a protocol response header (`known-error`) under every prefix the dialect's clients read. */
export function setProtocolHeader(headers: Headers, dialect: Dialect, name: string, value: string): void {
  for (const prefix of RESPONSE_HEADER_PREFIXES[dialect]) headers.set(prefix + name, value);
}
