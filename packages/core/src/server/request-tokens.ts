import { tokensOfRequest } from "../token-stores/request-token-store.js";
import type { Tokens } from "../token-stores/token-store.js";

/**
 * A request as any server framework hands it over: a fetch `Request` (Hono's `c.req.raw`, Next.js, Bun, Deno),
 * `{ headers: Headers }`, or Node's `IncomingMessage` (Express's `req`, Fastify's `request`), whose headers are a
 * plain object of lowercase names.
 */
export interface IncomingRequest {
  headers: { get(name: string): string | null } | Record<string, string | string[] | undefined>;
}

/** The request's headers behind one `get`, whichever shape they come in. */
export function headersOf(request: IncomingRequest): { get(name: string): string | null } {
  const headers = request.headers;
  if (typeof headers.get === "function") return headers as { get(name: string): string | null };
  const record = headers as Record<string, string | string[] | undefined>;
  return {
    get(name) {
      const value = record[name.toLowerCase()];
      // Node joins repeated headers itself except a few; cookies come as one string, set-cookie as an array.
      return value === undefined ? null : Array.isArray(value) ? value.join(name.toLowerCase() === "cookie" ? "; " : ", ") : value;
    },
  };
}

/**
 * The session tokens a request carries, looked for where clients put them: `Authorization: Bearer <access token>`
 * (an API call from your front end, `useAuth().getToken()`), the `x-stack-auth` header's JSON (what
 * `getAuthHeaders()` gives, as the protocol's client has it), or the cookies the browser's cookie token store
 * writes (`stack-access` holding `[refreshToken, accessToken]`, `stack-refresh-<projectId>`). A malformed
 * `x-stack-auth` header counts as no tokens: it is the visitor's input, not the app's mistake.
 */
export function tokensOfIncomingRequest(projectId: string, request: IncomingRequest): Tokens {
  const headers = headersOf(request);
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "");
  if (bearer) return { accessToken: bearer[1]!, refreshToken: null };
  try {
    return tokensOfRequest(projectId, { headers });
  } catch {
    return { accessToken: null, refreshToken: null };
  }
}
