import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "./context.js";

/**
 * Refuses a request body larger than `maxBytes` before reading it (issue 17: a 200 MB body was read whole
 * before any check). A declared Content-Length over the limit is refused at once; a chunked body is
 * counted as it streams and refused when it passes the limit. The protocol has no known error for this.
 */
export function limitBodySize(): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const maxBytes = c.get("deps").env.maxBodyBytes;
    const check = bodyLimit({
      maxSize: maxBytes,
      onError: (c) => c.text(`Request body too large: at most ${maxBytes} bytes are accepted.`, 413, { connection: "close" }),
    });
    return check(c, next);
  };
}
