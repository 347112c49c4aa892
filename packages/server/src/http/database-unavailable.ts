/**
 * Whether an error means the database cannot be used right now (stopped, restarting, unreachable, the
 * connection cut mid-query) rather than a fault of the request or of our code. Such requests are answered
 * 503 with `Retry-After`, promptly, and the next ones reach the database again once it is back (the pool
 * replaces broken connections; the change feed reconnects by itself).
 */
const UNAVAILABLE_CODES = new Set([
  // The client could not reach the server.
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE",
  // PostgreSQL: connection exceptions (class 08) and the server shutting down or starting (57P01–57P03).
  "08000", "08001", "08003", "08004", "08006", "57P01", "57P02", "57P03",
]);
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated unexpectedly|not queryable/;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const { code, message, errors } = current as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
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
