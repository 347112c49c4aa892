import { HttpStatusError } from "@latchkey/core";

/**
 * The server's own words for a failed request. Known errors carry them as their message; a plain HTTP error
 * (e.g. a 400 without a known-error code) carries them in its body, as text or as `{ "error": … }`.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof HttpStatusError) {
    try {
      const parsed = JSON.parse(error.body) as { error?: unknown };
      if (typeof parsed.error === "string") return parsed.error;
    } catch {
      // Not JSON: the body is the message.
    }
    return error.body.trim() || `The server answered with status ${error.status}.`;
  }
  return error instanceof Error ? error.message : String(error);
}
