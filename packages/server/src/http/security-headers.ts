import type { Context } from "hono";
import type { AppEnv } from "./context.js";
import { isCompleteAnswer } from "./answer.js";

// One year, the preload list's minimum.
const HSTS = "max-age=31536000; includeSubDomains";
const NOSNIFF = "nosniff";
const REFERRER_POLICY = "strict-origin-when-cross-origin";

/** The security headers every answer that is not an HTML page carries (below), for http/answer.ts. */
export function securityHeaderValues(https: boolean): Record<string, string> {
  return { "x-content-type-options": NOSNIFF, "referrer-policy": REFERRER_POLICY, ...(https ? { "strict-transport-security": HSTS } : {}) };
}

/**
 * Headers every response carries (issue 17): browsers never sniff a JSON or script answer into something
 * else, referrers do not leak paths (codes, tokens) to other sites, HTTPS is pinned when the server is
 * published over it, and Latchkey's own HTML pages (dev outbox, dev OAuth provider, demo, hosted pages)
 * cannot be framed for clickjacking. A page's own Content-Security-Policy is kept, with `frame-ancestors`
 * added unless it names its own. Set on the finished answer by app.ts's first layer.
 */
export function addSecurityHeaders(c: Context<AppEnv>): void {
  // A declared route's JSON answer already has them (http/answer.ts).
  if (isCompleteAnswer(c.res)) return;
  const https = c.get("deps").env.publicUrl.startsWith("https://");
  const headers = c.res.headers;
  headers.set("x-content-type-options", NOSNIFF);
  if (!headers.has("referrer-policy")) headers.set("referrer-policy", REFERRER_POLICY);
  if (https) headers.set("strict-transport-security", HSTS);
  if (headers.get("content-type")?.startsWith("text/html")) {
    const policy = headers.get("content-security-policy");
    if (!policy) headers.set("content-security-policy", "frame-ancestors 'none'");
    else if (!policy.includes("frame-ancestors")) headers.set("content-security-policy", `${policy}; frame-ancestors 'none'`);
    headers.set("x-frame-options", "DENY");
  }
}
