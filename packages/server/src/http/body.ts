import { KnownErrors } from "@latchkey/protocol/errors";
import { HTTPException } from "hono/http-exception";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { carriesBody } from "./body-limit.js";

/**
 * Parses a request body by its content type, as the protocol does before it looks at anything else:
 * a bad body is reported even when the headers are also wrong.
 */
export async function parseBody(request: Request): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const contentType = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  // Without a body, reading one would only make the adapter build a fetch Request for nothing.
  const buffer = carriesBody(request) ? await request.arrayBuffer() : EMPTY_BODY;
  (request as BodyRead)[RAW_BODY] = buffer;
  if (!contentType) return undefined;
  const text = () => utf8(buffer);
  switch (contentType) {
    case "application/json":
      return parseJson(buffer);
    case "text/plain":
      return text();
    case "application/x-www-form-urlencoded":
      return Object.fromEntries(new URLSearchParams(text()));
    case "application/octet-stream":
      return new Uint8Array(buffer);
    default:
      throw new HTTPException(400, { message: `Unknown content type in request body: ${contentType}` });
  }
}

// On the request itself rather than in a WeakMap: an entry per POST would make every garbage collection walk them.
const RAW_BODY = Symbol("raw body");
type BodyRead = Request & { [RAW_BODY]?: ArrayBuffer };
/** Shared by every request without a body (most POSTs of the protocol: refresh, sign-out); nothing writes to it. */
const EMPTY_BODY = new ArrayBuffer(0);

/** The bytes a request's body was parsed from: Stripe's webhook signature covers them exactly (issue 32). */
export function rawBodyOf(request: Request): ArrayBuffer | undefined {
  return (request as BodyRead)[RAW_BODY];
}

function utf8(buffer: ArrayBuffer | Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buffer);
  } catch {
    throw new KnownErrors.BodyParsingError("Request body cannot be parsed as UTF-8");
  }
}

function parseJson(buffer: ArrayBuffer | Uint8Array): unknown {
  const source = utf8(buffer);
  try {
    return JSON.parse(source);
  } catch {
    throw new KnownErrors.BodyParsingError("Invalid JSON in request body");
  }
}

/** What a compressed body may inflate to: far more than any batch a client sends, far less than a gzip bomb. */
export const MAX_INFLATED_BODY_BYTES = 4_000_000;
const inflate = promisify(gunzip);

/**
 * The body of a route whose JSON may also arrive gzip-compressed as `application/octet-stream` (2.8.108's
 * analytics batches, http/route.ts `gzipJsonBody`): such bytes are inflated and parsed as JSON; anything else
 * is returned as parsed. Every other route keeps receiving octet-stream bodies as bytes.
 */
export async function inflateJsonBody(body: unknown): Promise<unknown> {
  if (!(body instanceof Uint8Array)) return body;
  let inflated: Buffer;
  try {
    inflated = await inflate(body, { maxOutputLength: MAX_INFLATED_BODY_BYTES });
  } catch (error) {
    const tooLarge = (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE";
    throw new KnownErrors.BodyParsingError(
      tooLarge ? `Request body inflates to more than ${MAX_INFLATED_BODY_BYTES} bytes` : "Request body of type application/octet-stream must be gzip-compressed JSON",
    );
  }
  return parseJson(inflated);
}
