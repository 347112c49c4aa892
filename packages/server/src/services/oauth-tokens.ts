import { KnownErrors } from "@latchkey/protocol/errors";
import type { Db } from "../db/connect.js";
import type { Env } from "../env.js";
import { openSealedText, sealText } from "../crypto/sealed-text.js";
import type { InnerOAuthClient, ProviderTokens } from "../oauth/inner-client.js";
import { ProviderCallbackError } from "../oauth/inner-client.js";

/**
 * A link's provider tokens (SPEC.md §3 "OAuth provider link"): stored sealed (crypto/sealed-text.ts), and
 * handed out through /connected-accounts/…/access-token, refreshed with a stored refresh token when no stored
 * access token is fresh enough or has the scopes asked for.
 */

/** An access token handed out must stay usable for a while (as the protocol's server: five minutes). */
const MIN_REMAINING_LIFETIME_MS = 5 * 60_000;

/** What a sealed token is bound to: its link and kind, so it cannot be moved to another row. */
export const boundTo = (accountId: string, kind: "access" | "refresh") => `oauth-token:${accountId}:${kind}`;

export async function storeProviderTokens(db: Db, env: Env, oauthAccountId: string, tokens: ProviderTokens): Promise<void> {
  const rows: Array<{ kind: "access" | "refresh"; token: string; expiresAt: Date | null }> = [{ kind: "access", token: tokens.accessToken, expiresAt: tokens.expiresAt }];
  if (tokens.refreshToken) rows.push({ kind: "refresh", token: tokens.refreshToken, expiresAt: null });
  await db
    .insertInto("oauth_tokens")
    .values(
      rows.map((row) => {
        const sealed = sealText(env.serverSecret, boundTo(oauthAccountId, row.kind), row.token);
        return { oauth_account_id: oauthAccountId, kind: row.kind, sealed_token: sealed.sealed, sealing_key_id: sealed.keyId, scopes: tokens.scopes, expires_at: row.expiresAt };
      }),
    )
    .execute();
}

/** Scopes in a space- or comma-separated list. */
export function scopeList(scope: string | undefined | null): string[] {
  return (scope ?? "").split(/[\s,]+/).filter(Boolean);
}

/**
 * A provider access token of the link with every scope in `scope`: a stored one valid for a while yet, else one
 * got with a stored refresh token. OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE when neither works (no token
 * has the scopes, or the provider refused every refresh: the user must link again).
 */
export async function connectedAccountAccessToken(db: Db, env: Env, client: InnerOAuthClient, oauthAccountId: string, scope: string | undefined, now = Date.now()): Promise<string> {
  const wanted = scopeList(scope);
  const secrets = [env.serverSecret, ...env.previousServerSecrets];
  const rows = await db
    .selectFrom("oauth_tokens")
    .selectAll()
    .where("oauth_account_id", "=", oauthAccountId)
    .where("is_valid", "=", true)
    .orderBy("created_at", "desc")
    .execute();
  const usable = rows.filter((row) => wanted.every((s) => row.scopes.includes(s)));
  const open = (row: (typeof rows)[number]) => openSealedText(secrets, boundTo(oauthAccountId, row.kind), { sealed: row.sealed_token, keyId: row.sealing_key_id });

  for (const row of usable.filter((r) => r.kind === "access")) {
    if (row.expires_at && row.expires_at.getTime() < now + MIN_REMAINING_LIFETIME_MS) continue;
    const token = open(row);
    if (token) return token;
  }
  for (const row of usable.filter((r) => r.kind === "refresh")) {
    const refreshToken = open(row);
    if (!refreshToken) continue;
    let fresh: ProviderTokens;
    try {
      fresh = await client.refresh(refreshToken);
    } catch (error) {
      if (!(error instanceof ProviderCallbackError)) throw error;
      // Refused (revoked, expired): this refresh token will never work again. Anything else (the provider
      // unreachable, a bad answer) may pass, so the token is kept for the next request.
      if (error.kind === "invalid_grant") await db.updateTable("oauth_tokens").set({ is_valid: false }).where("id", "=", row.id).execute();
      continue;
    }
    // A refresh keeps the scopes of the grant unless the provider says otherwise.
    const scopes = fresh.scopes.length > 0 ? fresh.scopes : row.scopes;
    await storeProviderTokens(db, env, oauthAccountId, { ...fresh, scopes });
    // Providers that rotate refresh tokens invalidate the old one.
    if (fresh.refreshToken && fresh.refreshToken !== refreshToken) await db.updateTable("oauth_tokens").set({ is_valid: false }).where("id", "=", row.id).execute();
    return fresh.accessToken;
  }
  throw new KnownErrors.OAuthConnectionDoesNotHaveRequiredScope();
}
