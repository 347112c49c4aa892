import { KnownError, knownErrorFromJson } from "@latchkey/protocol/errors/known-error";
import { INVALID_ACCESS_TOKEN, INVALID_ADMIN_ACCESS_TOKEN, isKnownError } from "./client-errors.js";
import type { Clock } from "../clock.js";
import { ACCESS_TOKEN_FRESHNESS_MILLIS, CLIENT_VERSION } from "../constants.js";
import { HttpStatusError, NetworkError, OfflineError, ProtocolViolationError } from "./errors.js";
import { MAX_ATTEMPTS, isIdempotent, retryAfterMillis, retryDelayMillis } from "./retry-policy.js";
import { tellSetupError } from "./setup-errors.js";

export type AccessType = "client" | "server" | "admin";

export interface Tokens {
  accessToken: string | null;
  refreshToken: string | null;
}

/** What the HTTP layer needs of a session: tokens that are fresh enough, and a way to report a rejected one. */
export interface SessionTokens {
  getTokens(minValidMillis: number): Promise<Tokens | null>;
  markAccessTokenExpired(accessToken: string): void;
}

export interface HttpClientOptions {
  baseUrl: string;
  projectId: string;
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
  /** A signed-in session of the internal project whose user administers this project (admin access). */
  projectOwnerSession?: SessionTokens;
  fetch?: typeof fetch;
  clock: Clock;
  /** Source of jitter; `Math.random` unless a test fixes it. */
  random?: () => number;
  /** Whether the platform believes it is online; `navigator.onLine` where there is a navigator. */
  isOnline?: () => boolean;
  extraHeaders?: Record<string, string>;
}

export interface ApiRequest {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** Path under /api/v1, e.g. `/users/me`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON body. */
  body?: unknown;
  /** Form body (application/x-www-form-urlencoded), for the OAuth token endpoint. */
  form?: Record<string, string>;
  accessType: AccessType;
  session?: SessionTokens | null;
  /** Retry network failures even though the method is not idempotent (the request is safe to repeat). */
  idempotent?: boolean;
  /** Headers of this request only (the Svix-compatible webhook API's bearer token). */
  headers?: Record<string, string>;
}

/** The outcome of one attempt: done, or worth another attempt (after `waitMillis`, or the backoff delay). */
type Attempt = { done: true; response: Response } | { done: false; error: unknown; waitMillis?: number };

/**
 * Sends requests to /api/v1 with the protocol's x-stack-* headers and the client handling of SPEC.md §7:
 * network failures of idempotent requests, 429s (after Retry-After) and 508 loop detections are retried up
 * to 5 attempts with jittered exponential backoff; a rejected access token is refreshed and retried; known
 * errors are rebuilt as the catalogue's typed errors.
 */
export class HttpClient {
  constructor(private readonly options: HttpClientOptions) {}

  /** Sends the request and parses its JSON answer. */
  async json<T>(request: ApiRequest): Promise<T> {
    const response = await this.send(request);
    const text = await response.text();
    return (text === "" ? undefined : JSON.parse(text)) as T;
  }

  async send(request: ApiRequest): Promise<Response> {
    const { clock } = this.options;
    const random = this.options.random ?? Math.random;
    const errors: unknown[] = [];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const outcome = await this.attempt(request);
      if (outcome.done) return outcome.response;
      errors.push(outcome.error);
      if (attempt < MAX_ATTEMPTS - 1) await clock.sleep(outcome.waitMillis ?? retryDelayMillis(attempt, random));
    }
    const last = errors.at(-1);
    // A rejected token or a status error that kept recurring is reported as itself, not as a network problem.
    if (last instanceof KnownError || last instanceof HttpStatusError) throw last;
    throw this.networkFailure(last, MAX_ATTEMPTS);
  }

  private async attempt(request: ApiRequest): Promise<Attempt> {
    const tokens = request.session ? await request.session.getTokens(ACCESS_TOKEN_FRESHNESS_MILLIS) : null;
    const ownerTokens = this.options.projectOwnerSession ? await this.options.projectOwnerSession.getTokens(ACCESS_TOKEN_FRESHNESS_MILLIS) : null;
    const url = this.url(request);
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(url, this.init(request, tokens, ownerTokens));
    } catch (error) {
      // fetch rejects with a TypeError when the network fails; anything else is a bug to surface as is.
      if (!(error instanceof TypeError)) throw error;
      if (request.idempotent || isIdempotent(request.method)) return { done: false, error };
      throw this.networkFailure(error, 1);
    }
    const knownError = await readKnownError(response);
    if (knownError) {
      if (isKnownError(knownError, INVALID_ACCESS_TOKEN) && tokens?.accessToken) {
        request.session!.markAccessTokenExpired(tokens.accessToken);
        return { done: false, error: knownError, waitMillis: 0 };
      }
      if (isKnownError(knownError, INVALID_ADMIN_ACCESS_TOKEN) && ownerTokens?.accessToken) {
        this.options.projectOwnerSession!.markAccessTokenExpired(ownerTokens.accessToken);
        return { done: false, error: knownError, waitMillis: 0 };
      }
      if (request.accessType === "client") tellSetupError(knownError, this.options);
      throw knownError;
    }
    if (response.ok) return { done: true, response };
    if (response.status === 429) {
      const error = new HttpStatusError(429, await response.text(), url);
      return { done: false, error, waitMillis: retryAfterMillis(response.headers.get("retry-after"), this.options.clock.now()) };
    }
    const body = await response.text();
    const error = new HttpStatusError(response.status, body, url);
    if (response.status === 508 && body.includes("INFINITE_LOOP_DETECTED")) return { done: false, error };
    throw error;
  }

  private url(request: ApiRequest): string {
    const url = new URL(`${this.options.baseUrl.replace(/\/+$/, "")}/api/v1${request.path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  private init(request: ApiRequest, tokens: Tokens | null, ownerTokens: Tokens | null): RequestInit {
    const o = this.options;
    const headers: Record<string, string> = {
      "x-stack-project-id": o.projectId,
      "x-stack-access-type": request.accessType,
      "x-stack-client-version": CLIENT_VERSION,
      // Anonymous users are filtered by the library (SPEC.md §4), so the server may always answer for them.
      "x-stack-allow-anonymous-user": "true",
      // Makes every request unique, so no intermediary cache can answer it.
      "x-stack-random-nonce": randomNonce(),
      ...(o.publishableClientKey ? { "x-stack-publishable-client-key": o.publishableClientKey } : {}),
      ...(request.accessType !== "client" && o.secretServerKey ? { "x-stack-secret-server-key": o.secretServerKey } : {}),
      ...(request.accessType === "admin" && o.superSecretAdminKey ? { "x-stack-super-secret-admin-key": o.superSecretAdminKey } : {}),
      ...(request.accessType === "admin" && ownerTokens?.accessToken ? { "x-stack-admin-access-token": ownerTokens.accessToken } : {}),
      ...(tokens?.accessToken ? { "x-stack-access-token": tokens.accessToken } : {}),
      ...(tokens?.refreshToken ? { "x-stack-refresh-token": tokens.refreshToken } : {}),
      ...o.extraHeaders,
      ...request.headers,
    };
    let body: string | undefined;
    if (request.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(request.form).toString();
    } else if (request.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(request.body);
    }
    // Cookies of the page's origin are never sent: the API authenticates by headers only.
    return { method: request.method, headers, body, credentials: "omit", cache: "no-store" };
  }

  private networkFailure(cause: unknown, attempts: number): NetworkError {
    const online = this.options.isOnline ?? defaultIsOnline;
    if (!online()) return new OfflineError({ cause, attempts });
    return new NetworkError(`Latchkey could not reach the server at ${this.options.baseUrl} (${attempts} attempt${attempts === 1 ? "" : "s"}).`, { cause, attempts });
  }
}

/** The known error a response carries (x-stack-known-error header), checked against the body's code. */
async function readKnownError(response: Response): Promise<KnownError | undefined> {
  const headerCode = response.headers.get("x-stack-known-error");
  if (headerCode === null) return undefined;
  const body = (await response.json()) as { code: string; error: string; details?: unknown };
  if (body.code !== headerCode) {
    throw new ProtocolViolationError(`The x-stack-known-error header (${headerCode}) differs from the body's code (${body.code}).`);
  }
  // A server asked to override error statuses answers 200 and puts the real one here.
  const status = Number(response.headers.get("x-stack-actual-status") ?? response.status);
  return knownErrorFromJson(body, status);
}

function defaultIsOnline(): boolean {
  const navigator = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
  return navigator?.onLine !== false;
}

function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
