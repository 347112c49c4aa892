import { isConnectFailure } from "../db/connect.js";

/**
 * Whether an error means the database cannot be used right now (stopped, restarting, unreachable, the
 * connection cut mid-query) rather than a fault of the request or of our code. Such requests are answered
 * 503 with `Retry-After`, promptly, and the next ones reach the database again once it is back (the pool
 * replaces broken connections; the change feed reconnects by itself).
 */
const UNAVAILABLE_CODES = new Set([
  // The client could not reach the server, or lost it.
  "ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "ETIMEDOUT", "EHOSTUNREACH", "EHOSTDOWN", "ENETUNREACH", "ENETDOWN",
  "ENOTFOUND", "EAI_AGAIN", "EPIPE", "EADDRNOTAVAIL",
  // PostgreSQL ending or refusing the connection: an administrator or a shutdown (57P01, 57P02), starting up (57P03),
  // the database dropped (57P04), an idle session timed out (57P05), too many connections (53300).
  "57P01", "57P02", "57P03", "57P04", "57P05", "53300",
]);
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    // Whatever went wrong while getting a connection (db/connect.ts): the request never reached the database.
    if (isConnectFailure(current)) return true;
    const { code, message, errors } = current as { code?: unknown; message?: unknown; errors?: unknown };
    // Class 08 is PostgreSQL's "connection exception", whichever of its codes.
    if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.test(message)) return true;
    // Node reports a refused connection to a name with several addresses as an AggregateError.
    if (Array.isArray(errors) && errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}

export const DATABASE_UNAVAILABLE_SECONDS = 5;

export function databaseUnavailableResponse(): Response {
  return new Response("The database is unavailable. Please try again in a moment.", {
    status: 503,
    headers: { "content-type": "text/plain; charset=utf-8", "retry-after": String(DATABASE_UNAVAILABLE_SECONDS) },
  });
}
