import type { KnownError } from "@latchkey/protocol/errors";

/** The protocol's response for a known error: its bound status, the code header and a pretty JSON body. */
export function knownErrorResponse(error: KnownError): Response {
  return new Response(JSON.stringify(error.toJSON(), undefined, 2), {
    status: error.statusCode,
    headers: { "content-type": "application/json; charset=utf-8", "x-stack-known-error": error.code },
  });
}
