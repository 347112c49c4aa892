import { createHash, randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import type { MockAgent } from "undici";

/**
 * An OAuth provider (GitHub, Google, …) faked at its real URLs for a server running in the test process:
 * undici's MockAgent, set as the global dispatcher (Node's fetch, and openid-client through it, use it),
 * answers its token endpoint and API as the provider documents them, checks requests as the provider would
 * (client authentication, the code, redirect_uri, PKCE S256), and records what it received.
 */

export interface Received {
  method: string;
  url: URL;
  headers: Headers;
  body: URLSearchParams;
}

export type Json = Record<string, any>;

export interface Grant {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  account: Json;
  /** What the token endpoint hands out for this grant's code (made ahead: the mock answers synchronously). */
  issued: Issued;
}

export interface Issued {
  accessToken: string;
  refreshToken: string;
  /** The ID token of an OpenID provider, for the code's answer. */
  idToken?: string;
}

const newTokens = (): Issued => ({ accessToken: `at-${randomBytes(16).toString("hex")}`, refreshToken: `rt-${randomBytes(16).toString("hex")}` });

export interface ProviderSpec {
  type: string;
  clientId: string;
  clientSecret: string;
  authorizeEndpoint: string;
  tokenEndpoint: string;
  /**
   * How the provider wants the client to authenticate at its token endpoint. `basic-raw`: HTTP Basic over the
   * id and secret as they are, as X documents it, with no form-decoding of the two (RFC 6749 §2.3.1 has them
   * form-encoded first; a provider that does not decode them sees `%2D` where the secret has `-`).
   */
  clientAuth: "post" | "basic" | "basic-raw";
  /** GitHub answers its token endpoint in form encoding unless asked for JSON. */
  formUnlessAcceptJson?: boolean;
  /** The token endpoint's success body. */
  tokens: (issued: Issued, grant: Grant) => Json;
  /** An OpenID provider's ID token for the grant. */
  idToken?: (issued: Issued, grant: Omit<Grant, "issued">) => Promise<string>;
  /** How the provider refuses a bad, used or expired code (and a revoked refresh token), in its own dialect. */
  refusedGrant: { status: number; body: Json };
  refusedClient: { status: number; body: Json };
  /** The provider's API the profile is read from: URL → the answer for the token's account. */
  api?: Record<string, (account: Json, request: Received) => { status: number; body: unknown }>;
  /** Further fixed documents the provider serves (discovery, JWKS). */
  documents?: Record<string, unknown>;
  /** Parameters the provider adds when it sends the browser back (Google: scope, authuser, prompt). */
  callbackExtras?: (grant: Grant) => Record<string, string>;
}

/** One provider as the server sees it over HTTP: answers, checks and records. */
export class FakeProvider {
  readonly received: Received[] = [];
  readonly #grants = new Map<string, Grant>();
  /** Access and refresh tokens handed out → their grant. */
  readonly #accessTokens = new Map<string, Grant>();
  readonly #refreshTokens = new Map<string, Grant>();

  constructor(
    readonly agent: MockAgent,
    readonly spec: ProviderSpec,
  ) {
    this.#route("POST", spec.tokenEndpoint, (request) => this.#token(request));
    for (const [url, answer] of Object.entries(spec.api ?? {})) {
      this.#route("GET", url, (request) => {
        const grant = this.#accessTokens.get(request.headers.get("authorization")?.replace(/^Bearer /i, "") ?? "");
        if (!grant) return { status: 401, body: { message: "Bad credentials" } };
        return answer(grant.account, request);
      });
    }
    for (const [url, body] of Object.entries(spec.documents ?? {})) this.#route("GET", url, () => ({ status: 200, body }));
  }

  /**
   * The user approves at the provider's page: a code bound to the authorization request, and the redirect
   * back to the `redirect_uri` it named. `code` and `issued` are what the provider will hand out for it.
   */
  async approve(authorizeUrl: URL, account: Json): Promise<{ back: URL; code: string; issued: Issued }> {
    const params = authorizeUrl.searchParams;
    const request = {
      clientId: params.get("client_id")!,
      redirectUri: params.get("redirect_uri")!,
      codeChallenge: params.get("code_challenge")!,
      scope: params.get("scope")!,
      account,
    };
    const issued = newTokens();
    if (this.spec.idToken) issued.idToken = await this.spec.idToken(issued, request);
    const grant: Grant = { ...request, issued };
    const code = `code-${randomBytes(12).toString("hex")}`;
    this.#grants.set(code, grant);
    const back = new URL(grant.redirectUri);
    back.searchParams.set("code", code);
    back.searchParams.set("state", params.get("state")!);
    for (const [key, value] of Object.entries(this.spec.callbackExtras?.(grant) ?? {})) back.searchParams.set(key, value);
    return { back, code, issued };
  }

  /** What the token endpoint received since `from` (an index into `received`). */
  tokenRequests(from = 0): Received[] {
    return this.received.slice(from).filter((r) => r.url.href === new URL(this.spec.tokenEndpoint).href);
  }

  #token(request: Received): { status: number; body: Json } {
    const { spec } = this;
    if (!this.#clientAuthenticated(request)) return spec.refusedClient;
    const body = request.body;
    let grant: Grant | undefined;
    let issued: Issued;
    if (body.get("grant_type") === "authorization_code") {
      const code = body.get("code") ?? "";
      grant = this.#grants.get(code);
      // Single use: whatever the outcome, the code is gone.
      this.#grants.delete(code);
      const verifier = body.get("code_verifier") ?? "";
      if (!grant || grant.clientId !== spec.clientId || grant.redirectUri !== body.get("redirect_uri") || s256(verifier) !== grant.codeChallenge) return spec.refusedGrant;
      issued = grant.issued;
    } else if (body.get("grant_type") === "refresh_token") {
      grant = this.#refreshTokens.get(body.get("refresh_token") ?? "");
      if (!grant) return spec.refusedGrant;
      issued = newTokens();
    } else {
      return { status: 400, body: { error: "unsupported_grant_type" } };
    }
    this.#accessTokens.set(issued.accessToken, grant);
    this.#refreshTokens.set(issued.refreshToken, grant);
    return { status: 200, body: spec.tokens(issued, grant) };
  }

  #clientAuthenticated(request: Received): boolean {
    const { clientId, clientSecret, clientAuth } = this.spec;
    if (clientAuth === "post") return request.body.get("client_id") === clientId && request.body.get("client_secret") === clientSecret;
    const basic = request.headers.get("authorization")?.match(/^Basic (.+)$/)?.[1];
    if (!basic) return false;
    const [id = "", secret = ""] = Buffer.from(basic, "base64").toString().split(":");
    if (clientAuth === "basic-raw") return id === clientId && secret === clientSecret;
    const decode = (value: string) => decodeURIComponent(value.replaceAll("+", " "));
    return decode(id) === clientId && decode(secret) === clientSecret;
  }

  /** undici's mock wants the reply options synchronously, hence synchronous answers. */
  #route(method: string, url: string, answer: (request: Received) => { status: number; body: unknown }): void {
    const target = new URL(url);
    this.agent
      .get(target.origin)
      .intercept({ method, path: (path) => new URL(path, target.origin).pathname === target.pathname })
      .reply((options: MockedRequest) => {
        const request = received(target.origin, options);
        this.received.push(request);
        const { status, body } = answer(request);
        const accept = request.headers.get("accept") ?? "";
        if (this.spec.formUnlessAcceptJson && url === this.spec.tokenEndpoint && !accept.includes("json")) {
          return { statusCode: status, data: new URLSearchParams(body as Record<string, string>).toString(), responseOptions: { headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" } } };
        }
        return { statusCode: status, data: JSON.stringify(body), responseOptions: { headers: { "content-type": "application/json; charset=utf-8" } } };
      })
      .persist();
  }
}

/** A request as undici's mock dispatcher hands it to a reply callback (fetch's headers arrive as an object). */
interface MockedRequest {
  path: string;
  method: string;
  headers?: unknown;
  body?: unknown;
}

function received(origin: string, options: MockedRequest): Received {
  const headers = new Headers();
  const raw = options.headers;
  if (raw instanceof Headers) raw.forEach((value, key) => headers.set(key, value));
  else if (Array.isArray(raw)) for (let i = 0; i < raw.length; i += 2) headers.set(String(raw[i]), String(raw[i + 1]));
  else if (raw) for (const [key, value] of Object.entries(raw)) headers.set(key, String(value));
  const body = options.body;
  if (body != null && typeof body !== "string" && !(body instanceof Uint8Array)) throw new Error(`The fake provider cannot read a ${typeof body} request body`);
  const text = typeof body === "string" ? body : body ? Buffer.from(body).toString() : "";
  return { method: options.method, url: new URL(options.path, origin), headers, body: new URLSearchParams(text) };
}

export const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

/**
 * An OpenID provider's signing key: its JWKS and ID tokens signed with it (RS256, as Google and Apple sign).
 * The account's `claims` go into the token; `audience` replaces the client id (a token for another client).
 */
export async function idTokenSigner(issuer: string) {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const kid = randomBytes(8).toString("hex");
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" }] };
  const sign = ({ accessToken }: Issued, grant: Omit<Grant, "issued">) =>
    new SignJWT({ at_hash: createHash("sha256").update(accessToken).digest().subarray(0, 16).toString("base64url"), ...grant.account.claims })
      .setProtectedHeader({ alg: "RS256", kid })
      .setIssuer(issuer)
      .setAudience(grant.account.audience ?? grant.clientId)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(privateKey);
  return { jwks, sign };
}
