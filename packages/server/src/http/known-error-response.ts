import { knownErrorInDialect, type Dialect } from "@latchkey/protocol/dialects";
import type { KnownError } from "@latchkey/protocol/errors";
import { setProtocolHeader } from "./dialect.js";

/**
 * The protocol's response for a known error: its bound status, the code header and a pretty JSON body, in
 * the request's dialect (a code that version lacks is translated, protocol/src/dialects.ts).
 */
export function knownErrorResponse(error: KnownError, dialect: Dialect): Response {
  const { status, body } = knownErrorInDialect(error, dialect);
  const headers = new Headers({ "content-type": "application/json; charset=utf-8" });
  setProtocolHeader(headers, dialect, "known-error", body.code);
  return new Response(JSON.stringify(body, undefined, 2), { status, headers });
}
