import { AccessTokenExpired, AnonymousAuthenticationNotAllowed, InvalidAccessToken, InvalidProjectForAccessToken, UnparsableAccessToken } from "@latchkey/protocol/errors/session";
import { decodeJwt, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { systemClock, type Clock } from "../clock.js";
import { JwksCache } from "./jwks-cache.js";
import { tokensOfIncomingRequest, type IncomingRequest } from "./request-tokens.js";

export interface TokenVerifierOptions {
  projectId: string;
  /** The Latchkey server as this app reaches it, e.g. `http://localhost:8102`; the keys are fetched from here. */
  baseUrl: string;
  /**
   * The server's public URL (its LATCHKEY_PUBLIC_URL), when this app reaches it at another address, e.g.
   * `http://latchkey:8102` inside Docker: tokens name it in their issuer. Default: `baseUrl`.
   */
  publicUrl?: string;
  /** Accept anonymous users' tokens too (`user.isAnonymous`); by default they count as signed out. */
  allowAnonymous?: boolean;
  /** How long fetched keys are used before they are fetched again; default 10 minutes. */
  keysMaxAgeMillis?: number;
  /** A token naming an unknown key fetches the keys again at most this often; default 30 s. */
  keysCooldownMillis?: number;
  fetch?: typeof fetch;
  clock?: Clock;
}

/** The claims of a Latchkey access token (SPEC.md §3), as the server signs them. */
export interface AccessTokenPayload extends JWTPayload {
  sub: string;
  exp: number;
  iat: number;
  iss: string;
  aud: string;
  project_id: string;
  branch_id: string;
  refresh_token_id: string;
  name?: string | null;
  email?: string | null;
  email_verified?: boolean;
  selected_team_id?: string | null;
  is_anonymous?: boolean;
}

/** The signed-in user as their verified access token describes them: no request to the Latchkey server. */
export interface AuthenticatedUser {
  id: string;
  displayName: string | null;
  primaryEmail: string | null;
  primaryEmailVerified: boolean;
  selectedTeamId: string | null;
  isAnonymous: boolean;
  /** The session the token belongs to (what the sessions API calls its id): revoking it ends the user's refreshes. */
  sessionId: string;
  /** When the token stops being accepted. A revoked session's token is accepted until then: tokens are stateless. */
  expiresAt: Date;
  /** The access token, to call the Latchkey API or your own services as this user. */
  accessToken: string;
  claims: AccessTokenPayload;
}

export interface TokenVerifier {
  /**
   * The user of a valid access token of this project. Throws the catalogue's errors for a token to refuse
   * (`KnownErrors.InvalidAccessToken`: `AccessTokenExpired`, `InvalidProjectForAccessToken`,
   * `UnparsableAccessToken` for a bad signature or an unknown key; `AnonymousAuthenticationNotAllowed`), and a
   * plain Error for a setup problem: keys that cannot be fetched, or tokens naming another issuer.
   */
  verifyAccessToken(token: string): Promise<AuthenticatedUser>;
  /**
   * The signed-in user of a request (Authorization bearer token, `x-stack-auth` header, or the session cookies),
   * or null: no token, or one to refuse (expired, another project's, forged). Setup problems throw.
   */
  getUser(request: IncomingRequest): Promise<AuthenticatedUser | null>;
  /** How many times the keys were fetched so far. */
  readonly keyFetches: number;
}

const ANONYMOUS_SUFFIX = ":anon";

/**
 * Verifies a project's access tokens on your own server, against the project's public keys (its JWKS, fetched
 * once and cached): ES256 only, this project's audience, the server's issuer, not expired.
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const publicUrl = (options.publicUrl ?? baseUrl).replace(/\/+$/, "");
  const clock = options.clock ?? systemClock;
  const projectId = options.projectId;
  const keys = new JwksCache({
    url: `${baseUrl}/api/v1/projects/${encodeURIComponent(projectId)}/.well-known/jwks.json${options.allowAnonymous ? "?include_anonymous=true" : ""}`,
    fetch: options.fetch ?? ((...args) => fetch(...args)),
    clock,
    maxAgeMillis: options.keysMaxAgeMillis ?? 600_000,
    cooldownMillis: options.keysCooldownMillis ?? 30_000,
  });

  async function verifyAccessToken(token: string): Promise<AuthenticatedUser> {
    let unverified: JWTPayload;
    try {
      unverified = decodeJwt(token);
    } catch {
      throw new UnparsableAccessToken();
    }
    // Which project the token claims is read before any key is looked up: another project's token is refused
    // as such (and cannot make the cache fetch keys for a key id it will never hold).
    const audience = typeof unverified.aud === "string" ? unverified.aud : undefined;
    if (!audience) throw new UnparsableAccessToken();
    const isAnonymous = audience.endsWith(ANONYMOUS_SUFFIX);
    const tokenProject = isAnonymous ? audience.slice(0, -ANONYMOUS_SUFFIX.length) : audience;
    if (tokenProject !== projectId) throw new InvalidProjectForAccessToken(projectId, tokenProject);
    if (isAnonymous && !options.allowAnonymous) throw new AnonymousAuthenticationNotAllowed();

    const payload = await verifySignature(token, audience);
    const issuer = `${publicUrl}/api/v1/${isAnonymous ? "projects-anonymous-users" : "projects"}/${projectId}`;
    if (payload.iss !== issuer) {
      // Signed by this project's key, so the server's public URL is not the one this app was told: a setup mistake.
      throw new Error(
        `The access token's issuer is ${JSON.stringify(payload.iss)}, expected ${JSON.stringify(issuer)}. ` +
          `Set publicUrl to the Latchkey server's LATCHKEY_PUBLIC_URL (${JSON.stringify(String(payload.iss).replace(/\/api\/v1\/.*$/, ""))}) when this app reaches the server at another address.`,
      );
    }
    return userOf(token, payload);
  }

  async function verifySignature(token: string, audience: string): Promise<AccessTokenPayload> {
    const verify = (key: JWTVerifyGetKey) =>
      jwtVerify<AccessTokenPayload>(token, key, {
        algorithms: ["ES256"],
        audience,
        currentDate: new Date(clock.now()),
        requiredClaims: ["sub", "exp", "iat", "iss", "project_id", "refresh_token_id"],
      });
    try {
      try {
        return (await verify(await keys.current())).payload;
      } catch (error) {
        if (!(error instanceof joseErrors.JWKSNoMatchingKey)) throw error;
        // A key the cached set lacks: the server may have rotated twice since; fetch again (within the cooldown).
        const fresh = await keys.afterUnknownKey();
        if (!fresh) throw error;
        return (await verify(fresh)).payload;
      }
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        const claims = error.payload;
        const text = (value: unknown) => (typeof value === "string" ? value : undefined);
        throw new AccessTokenExpired(typeof claims.exp === "number" ? new Date(claims.exp * 1000) : undefined, text(claims.project_id), text(claims.sub), text(claims.refresh_token_id));
      }
      if (error instanceof joseErrors.JOSEError) throw new UnparsableAccessToken();
      throw error;
    }
  }

  return {
    verifyAccessToken,
    async getUser(request) {
      const { accessToken } = tokensOfIncomingRequest(projectId, request);
      if (!accessToken) return null;
      try {
        return await verifyAccessToken(accessToken);
      } catch (error) {
        if (error instanceof InvalidAccessToken || error instanceof AnonymousAuthenticationNotAllowed) return null;
        throw error;
      }
    },
    get keyFetches() {
      return keys.fetches;
    },
  };
}

function userOf(accessToken: string, claims: AccessTokenPayload): AuthenticatedUser {
  return {
    id: claims.sub,
    displayName: claims.name ?? null,
    primaryEmail: claims.email ?? null,
    primaryEmailVerified: claims.email_verified === true,
    selectedTeamId: claims.selected_team_id ?? null,
    isAnonymous: claims.is_anonymous === true,
    sessionId: claims.refresh_token_id,
    expiresAt: new Date(claims.exp * 1000),
    accessToken,
    claims,
  };
}
