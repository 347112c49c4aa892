import { KnownErrors } from "@latchkey/protocol/errors";
import type { Dialect } from "@latchkey/protocol/dialects";
import type { UserRestrictedReason } from "@latchkey/protocol/schemas";
import { createPrivateKey, sign, type JsonWebKey as NodeJwk, type KeyObject } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, importJWK, jwtVerify, type JWTPayload } from "jose";
import type { Env } from "../env.js";
import { signingKeyRingOf, type PublicJwk, type SigningKey, type SigningKeyRing } from "./signing-keys.js";

// Importing a JWK costs more than the signature itself; a kid names one key, so cache them.
const publicKeys = new Map<string, Promise<CryptoKey | Uint8Array>>();
function publicKeyOf(key: SigningKey) {
  let cached = publicKeys.get(key.kid);
  if (!cached) publicKeys.set(key.kid, (cached = importJWK(key.publicJwk, "ES256")));
  return cached;
}
/** What signing with one key needs, made once per key: its imported private key and its encoded protected header. */
interface Signer {
  key: KeyObject;
  /** `{"alg":"ES256","kid":…,"typ":"JWT"}`, base64url-encoded, with the "." that follows it. */
  headerDot: string;
}
const signers = new Map<string, Signer>();
function signerOf(key: SigningKey): Signer {
  let signer = signers.get(key.kid);
  if (!signer) {
    const header = { alg: "ES256", kid: key.kid, typ: "JWT" };
    signer = { key: createPrivateKey({ key: key.privateJwk as NodeJwk, format: "jwk" }), headerDot: `${base64url(JSON.stringify(header))}.` };
    signers.set(key.kid, signer);
  }
  return signer;
}

const base64url = (text: string) => Buffer.from(text).toString("base64url");

/**
 * A compact JWS (RFC 7515) signed ES256 with node:crypto. jose 6 signs through WebCrypto only, whose
 * promise-based job cost 0.16 ms of CPU per token here against 0.03 ms for node:crypto's one call: a fifth
 * of a token refresh. jose still verifies every token (and tests verify ours with jose and the published SDK).
 * The header is the same for every token of a key, so it is encoded once (`signerOf`); the claims are encoded
 * and signed per token.
 */
async function signEs256(signer: Signer, claims: AccessTokenClaims): Promise<string> {
  const signingInput = signer.headerDot + base64url(JSON.stringify(claims));
  const signature = await signSoon(Buffer.from(signingInput, "latin1"), signer.key);
  return `${signingInput}.${signature.toString("base64url")}`;
}

/**
 * The signatures asked for during one turn of the event loop, made one after the other at its end (Node's check
 * phase), each for its own token. An ES256 signature reads OpenSSL's table of precomputed P-256 points (~150 KB)
 * and its code: alone between two requests' work those come from memory, and a signature cost ~0.13 ms of the
 * server's CPU (bench/cached-reads.mjs under load: a token refresh at 0.34 ms against 0.21 ms with a fixed
 * signature), where a signature right after another costs ~0.035 ms. A loaded server reads several requests per
 * turn, whose signatures then share the warm table (refresh 0.31 -> 0.23 ms); the wait is the rest of that turn.
 * `setImmediate` as it was at start: a test's fake timers must not hold tokens back.
 */
let pendingSignatures: { input: Buffer; key: KeyObject; resolve: (signature: Buffer) => void; reject: (error: unknown) => void }[] | undefined;
const atEndOfTurn = setImmediate;

function signSoon(input: Buffer, key: KeyObject): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (!pendingSignatures) {
      pendingSignatures = [];
      atEndOfTurn(signPending);
    }
    pendingSignatures.push({ input, key, resolve, reject });
  });
}

function signPending(): void {
  const batch = pendingSignatures ?? [];
  pendingSignatures = undefined;
  for (const { input, key, resolve, reject } of batch) {
    try {
      resolve(sign("sha256", input, { key, dsaEncoding: "ieee-p1363" }));
    } catch (error) {
      reject(error);
    }
  }
}

/**
 * The access token's claims: exactly the protocol's payload, nothing more. Which of them a token carries follows
 * the request that gets it (`AccessTokenDialect`): 2.8.108's set (`signed_up_at` … `requires_totp_mfa`, which its
 * client requires) is left out of tokens issued to `x-stack-*` requests, as the reference's 2.8.41 server does.
 */
export interface AccessTokenClaims {
  sub: string;
  exp: number;
  iat: number;
  iss: string;
  aud: string;
  project_id: string;
  branch_id: string;
  refresh_token_id: string;
  role: "authenticated";
  name: string | null;
  email: string | null;
  email_verified: boolean;
  selected_team_id: string | null;
  is_anonymous: boolean;
  // 2.8.108's own: absent from tokens issued to 2.8.41's clients.
  /** Seconds since the epoch, like the other dates of a JWT. */
  signed_up_at?: number;
  is_restricted?: boolean;
  restricted_reason?: UserRestrictedReason | null;
  requires_totp_mfa?: boolean;
}

/**
 * The protocol version whose claims a token carries: the dialect its request named with its headers, or null
 * for a request naming none (the OAuth token endpoint as the SDKs call it), which gets every claim: such a token
 * may be read by either version's client, and 2.8.41's ignores claims it does not know.
 */
export type AccessTokenDialect = Dialect | null;

export interface AccessTokenSubject {
  projectId: string;
  branchId: string;
  userId: string;
  refreshTokenId: string;
  name: string | null;
  email: string | null;
  emailVerified: boolean;
  selectedTeamId: string | null;
  signedUpAt: Date;
  isAnonymous: boolean;
  /** Why the user is restricted, or null (services/user-restrictions.ts). */
  restrictedReason: UserRestrictedReason | null;
  requiresTotpMfa: boolean;
}

/** Audience of a project's tokens; anonymous users get their own, so their tokens never pass as regular ones. */
export function tokenAudience(projectId: string, isAnonymous: boolean): string {
  return isAnonymous ? `${projectId}:anon` : projectId;
}

export function tokenIssuer(env: Env, projectId: string, isAnonymous: boolean): string {
  return `${env.publicUrl}/api/v1/${isAnonymous ? "projects-anonymous-users" : "projects"}/${projectId}`;
}

/**
 * Public keys a verifier needs for a project: the current and the next key of its audience (and of its
 * anonymous users' audience when asked), current first. The next key is published before it signs anything,
 * so a verifier's cached copy already holds it when a rotation makes it current (services/signing-keys.ts).
 */
export async function projectJwks(env: Env, projectId: string, includeAnonymous: boolean): Promise<{ keys: PublicJwk[] }> {
  const ring = signingKeyRingOf(env);
  const audiences = includeAnonymous ? [tokenAudience(projectId, false), tokenAudience(projectId, true)] : [tokenAudience(projectId, false)];
  const keys: PublicJwk[] = [];
  for (const audience of audiences) keys.push(...(await ring.publishedKeys(audience)).map((key) => key.publicJwk));
  return { keys };
}

export async function signAccessToken(env: Env, subject: AccessTokenSubject, now = Date.now(), dialect: AccessTokenDialect = null): Promise<string> {
  const audience = tokenAudience(subject.projectId, subject.isAnonymous);
  const key = await signingKeyRingOf(env).signingKey(audience);
  const iat = Math.floor(now / 1000);
  // In the order the reference's 2.8.41 tokens list them.
  const claims: AccessTokenClaims = {
    sub: subject.userId,
    project_id: subject.projectId,
    branch_id: subject.branchId,
    refresh_token_id: subject.refreshTokenId,
    role: "authenticated",
    name: subject.name,
    email: subject.email,
    email_verified: subject.emailVerified,
    selected_team_id: subject.selectedTeamId,
    is_anonymous: subject.isAnonymous,
    iss: tokenIssuer(env, subject.projectId, subject.isAnonymous),
    aud: audience,
    exp: iat + env.accessTokenLifetimeSeconds,
    iat,
  };
  if (dialect !== "2.8.41") {
    claims.signed_up_at = Math.floor(subject.signedUpAt.getTime() / 1000);
    claims.is_restricted = subject.restrictedReason !== null;
    claims.restricted_reason = subject.restrictedReason;
    claims.requires_totp_mfa = subject.requiresTotpMfa;
  }
  return signEs256(signerOf(key), claims);
}

/**
 * Verifies an access token of any project served here and returns its claims. Only ES256 signatures by
 * one of our keys for the audience the token names are accepted (no `none`, no HMAC, no foreign
 * keys). Errors are the protocol's: unparsable, expired (with its time), anonymous not allowed.
 */
export async function verifyAccessToken(env: Env, token: string, options: { allowAnonymous: boolean }): Promise<AccessTokenClaims> {
  const ring = signingKeyRingOf(env);
  const known = verifiedTokens.get(token);
  // Only for the ring (the database's keys) that verified it, one process may serve several databases (tests),
  // and only while none of its keys was removed since.
  if (known && known.ring === ring && known.epoch === ring.epoch) {
    if (known.claims.is_anonymous && !options.allowAnonymous) throw new KnownErrors.AnonymousAuthenticationNotAllowed();
    if (known.claims.exp * 1000 <= Date.now()) throw expired(known.claims as unknown as JWTPayload);
    return known.claims;
  }
  const claims = await verifyAccessTokenSignature(env, ring, token, options);
  if (verifiedTokens.size >= VERIFIED_TOKENS_MAX) verifiedTokens.delete(verifiedTokens.keys().next().value!);
  verifiedTokens.set(token, { claims, ring, epoch: ring.epoch });
  return claims;
}

/**
 * Tokens whose signature already verified, so a client reusing its token (the common case, for minutes)
 * costs one map lookup instead of an ECDSA verification. A token is immutable, so its verified claims stay
 * true; only expiry and the anonymous rule are re-checked. Oldest entries are dropped first.
 */
const VERIFIED_TOKENS_MAX = 10_000;
const verifiedTokens = new Map<string, { claims: AccessTokenClaims; ring: SigningKeyRing; epoch: number }>();

async function verifyAccessTokenSignature(env: Env, ring: SigningKeyRing, token: string, options: { allowAnonymous: boolean }): Promise<AccessTokenClaims> {
  let unverified: JWTPayload;
  let kid: string | undefined;
  try {
    unverified = decodeJwt(token);
    kid = decodeProtectedHeader(token).kid;
  } catch {
    throw new KnownErrors.UnparsableAccessToken();
  }
  const audience = typeof unverified.aud === "string" ? unverified.aud : undefined;
  if (!audience) throw new KnownErrors.UnparsableAccessToken();
  const isAnonymous = audience.endsWith(":anon");
  if (isAnonymous && !options.allowAnonymous) throw new KnownErrors.AnonymousAuthenticationNotAllowed();

  // Any generation still kept verifies, so tokens signed before a rotation stay valid for their lifetime.
  const key = kid ? await ring.verificationKey(audience, kid) : undefined;
  if (!key) throw new KnownErrors.UnparsableAccessToken();
  try {
    const { payload } = await jwtVerify(token, await publicKeyOf(key), {
      algorithms: ["ES256"],
      audience,
      issuer: tokenIssuer(env, audience.replace(/:anon$/, ""), isAnonymous),
      requiredClaims: ["sub", "exp", "project_id", "branch_id", "refresh_token_id"],
    });
    return payload as unknown as AccessTokenClaims;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) {
      throw expired(unverified);
    }
    throw new KnownErrors.UnparsableAccessToken();
  }
}

/** ACCESS_TOKEN_EXPIRED with the token's expiry and, for the 2.8.108 wording, its project, user and session. */
function expired(claims: JWTPayload): InstanceType<typeof KnownErrors.AccessTokenExpired> {
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  const exp = typeof claims.exp === "number" ? new Date(claims.exp * 1000) : undefined;
  return new KnownErrors.AccessTokenExpired(exp, text(claims.project_id), text(claims.sub), text(claims.refresh_token_id));
}
