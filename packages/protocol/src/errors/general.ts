/** Errors about the request as a whole: its body, its shape, and codes this side does not know. */
import { defineKnownError } from "./known-error.js";

/** Indents every line of `text` (the first included) by `prefix`. */
function indentLines(text: string, prefix: string): string {
  return prefix + text.replaceAll("\n", `\n${prefix}`);
}

export const UnsupportedError = defineKnownError("UNSUPPORTED_ERROR", {
  status: 500,
  build: (originalErrorCode: string) => ({
    message: `An error occurred that is not currently supported (possibly because it was added in a version of Stack that is newer than this client). The original unsupported error code was: ${originalErrorCode}`,
    details: { originalErrorCode },
  }),
  fromDetails: (d) => [d?.originalErrorCode],
});

/** The body could not be parsed at all (e.g. invalid JSON); the message says what went wrong. */
export const BodyParsingError = defineKnownError("BODY_PARSING_ERROR", {
  status: 400,
  build: (message: string) => ({ message }),
  fromDetails: (d) => [d?.message],
});

/** The request did not match the endpoint's schema; the message lists every mismatch. */
export const SchemaError = defineKnownError("SCHEMA_ERROR", {
  status: 400,
  build: (message: string) => {
    if (!message) throw new TypeError("SchemaError requires a message");
    return { message, details: { message } };
  },
  fromDetails: (d) => [d?.message],
});

/** Every overload of an endpoint rejected the request; each overload's error is listed. */
export const AllOverloadsFailed = defineKnownError("ALL_OVERLOADS_FAILED", {
  status: 400,
  build: (overloadErrors: unknown[]) => {
    const overloads = overloadErrors
      .map((overloadError, i) => `Overload ${i + 1}: ${JSON.stringify(overloadError, undefined, 2)}`)
      .join("\n\n");
    return {
      message: `This endpoint has multiple overloads, but they all failed to process the request.\n\n${indentLines(overloads, "  ")}`,
      details: { overload_errors: overloadErrors },
    };
  },
  fromDetails: (d) => [d?.overload_errors],
});
