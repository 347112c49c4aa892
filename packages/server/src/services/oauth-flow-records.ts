import { createHash } from "node:crypto";
import type { Db } from "../db/connect.js";
import { secureRandomString } from "../crypto/secrets.js";

/**
 * The two short-lived records of an OAuth sign-in (SPEC.md §4), both stored by hash and used up with one
 * `DELETE … RETURNING`, so each works once even when requests race:
 * - the outer state: what the client asked for at /auth/oauth/authorize, named by the state Latchkey sends to
 *   the provider; the browser that asked also holds a cookie named after that state (routes/auth-oauth.ts), so
 *   the callback needs both the cookie and a state the database knows;
 * - the authorization code Latchkey hands the client, exchanged at /auth/oauth/token with the PKCE verifier.
 */

/** As the protocol's server: the user has ten minutes at the provider. */
export const OUTER_STATE_LIFETIME_MS = 10 * 60_000;
/** The client exchanges the code right away; five minutes, as the protocol's OAuth server allows. */
export const AUTHORIZATION_CODE_LIFETIME_MS = 5 * 60_000;

/** What the authorize request asked for, kept until the provider calls back. */
export interface OuterOAuthInfo {
  providerConfigId: string;
  type: "authenticate" | "link";
  /** The client's redirect_uri (without its fragment) and state, for the redirect that ends the callback. */
  redirectUri: string;
  clientState: string;
  /** Always an S256 challenge: a `plain` one is stored as its S256 (pkceChallengeOf), so one check serves both. */
  codeChallenge: string;
  /** The user of the `token` sent along: who links, or the anonymous user to upgrade. */
  userId: string | null;
  providerScope: string | null;
  errorRedirectUrl: string | null;
  afterCallbackRedirectUrl: string | null;
  /** PKCE verifier towards the provider. */
  innerCodeVerifier: string;
}

const hash = (value: string) => new Uint8Array(createHash("sha256").update(value, "utf8").digest());

/** Stores the outer info; returns the state to send to the provider. */
export async function createOuterState(db: Db, projectId: string, info: OuterOAuthInfo, now = Date.now()): Promise<string> {
  const state = secureRandomString();
  await db
    .insertInto("oauth_outer_states")
    .values({ state_hash: hash(state), project_id: projectId, info: JSON.stringify(info), expires_at: new Date(now + OUTER_STATE_LIFETIME_MS) })
    .execute();
  return state;
}

export type ConsumedOuterState = { status: "ok"; projectId: string; info: OuterOAuthInfo } | { status: "expired"; projectId: string; info: OuterOAuthInfo } | { status: "unknown" };

/** Uses up the outer state named by the provider's `state`: once only. */
export async function consumeOuterState(db: Db, state: string, now = Date.now()): Promise<ConsumedOuterState> {
  const row = await db.deleteFrom("oauth_outer_states").where("state_hash", "=", hash(state)).returning(["project_id", "info", "expires_at"]).executeTakeFirst();
  if (!row) return { status: "unknown" };
  const info = (typeof row.info === "string" ? JSON.parse(row.info) : row.info) as OuterOAuthInfo;
  return { status: row.expires_at.getTime() > now ? "ok" : "expired", projectId: row.project_id, info };
}

export interface AuthorizationCodeGrant {
  userId: string;
  redirectUri: string;
  codeChallenge: string;
  isNewUser: boolean;
  afterCallbackRedirectUrl: string | null;
}

export async function createAuthorizationCode(db: Db, projectId: string, grant: AuthorizationCodeGrant, now = Date.now()): Promise<string> {
  const code = secureRandomString();
  await db
    .insertInto("oauth_authorization_codes")
    .values({
      code_hash: hash(code),
      project_id: projectId,
      user_id: grant.userId,
      redirect_uri: grant.redirectUri,
      code_challenge: grant.codeChallenge,
      is_new_user: grant.isNewUser,
      after_callback_redirect_url: grant.afterCallbackRedirectUrl,
      expires_at: new Date(now + AUTHORIZATION_CODE_LIFETIME_MS),
    })
    .execute();
  return code;
}

/** Uses up a code of the project: the grant if it existed and had not expired; a code is gone after one try either way. */
export async function consumeAuthorizationCode(db: Db, projectId: string, code: string, now = Date.now()): Promise<AuthorizationCodeGrant | undefined> {
  const row = await db.deleteFrom("oauth_authorization_codes").where("code_hash", "=", hash(code)).where("project_id", "=", projectId).returningAll().executeTakeFirst();
  if (!row || row.expires_at.getTime() <= now) return undefined;
  return {
    userId: row.user_id,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    isNewUser: row.is_new_user,
    afterCallbackRedirectUrl: row.after_callback_redirect_url,
  };
}

/** RFC 7636 S256: BASE64URL(SHA256(verifier)), compared in full. */
export function pkceChallengeOf(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/** Expired records nobody came back for; the verification-code sweeper calls this. */
export async function sweepExpiredOAuthRecords(db: Db, now = Date.now()): Promise<void> {
  await db.deleteFrom("oauth_outer_states").where("expires_at", "<", new Date(now)).execute();
  await db.deleteFrom("oauth_authorization_codes").where("expires_at", "<", new Date(now)).execute();
}
