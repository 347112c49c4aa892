import { KnownErrors } from "@latchkey/protocol/errors";
import { HTTPException } from "hono/http-exception";

/**
 * Parses a request body by its content type, as the protocol does before it looks at anything else:
 * a bad body is reported even when the headers are also wrong.
 */
export async function parseBody(request: Request): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const contentType = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  const buffer = await request.arrayBuffer();
  if (!contentType) return undefined;
  const text = () => {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(buffer);
    } catch {
      throw new KnownErrors.BodyParsingError("Request body cannot be parsed as UTF-8");
    }
  };
  switch (contentType) {
    case "application/json": {
      const source = text();
      try {
        return JSON.parse(source);
      } catch {
        throw new KnownErrors.BodyParsingError("Invalid JSON in request body");
      }
    }
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
