import type { Clock } from "../clock.js";
import type { SessionTokens } from "../http/http-client.js";
import { NO_TOKENS, type TokenStore, type Tokens } from "../token-stores/token-store.js";
import { isAccessTokenFresh } from "./access-token.js";

/** Trades a refresh token for a new access token; `null` when the server no longer knows the refresh token. */
export type RefreshAccessToken = (refreshToken: string) => Promise<string | null>;

/**
 * A user's session over a token store (SPEC.md §4). Invalid without tokens; the access token is used while
 * fresh, otherwise refreshed, with concurrent refreshes sharing one request. A refresh the server rejects
 * signs the session out (both tokens cleared).
 */
export class Session implements SessionTokens {
  private refreshing: { refreshToken: string; promise: Promise<Tokens | null> } | undefined;

  constructor(
    readonly store: TokenStore,
    private readonly refreshAccessToken: RefreshAccessToken,
    private readonly clock: Clock,
  ) {}

  /** The current tokens as stored, without refreshing. */
  peek(): Tokens {
    return this.store.get();
  }

  /** Tokens whose access token stays valid for `minValidMillis`, refreshing if needed; `null` if signed out. */
  async getTokens(minValidMillis: number): Promise<Tokens | null> {
    const tokens = this.store.get();
    if (!tokens.accessToken && !tokens.refreshToken) return null;
    if (tokens.accessToken && isAccessTokenFresh(tokens.accessToken, this.clock.now(), minValidMillis)) return tokens;
    if (!tokens.refreshToken) return null;
    return this.refresh(tokens.refreshToken);
  }

  /** Refreshes now (sharing a refresh already under way for the same refresh token). */
  refresh(refreshToken: string): Promise<Tokens | null> {
    if (this.refreshing?.refreshToken === refreshToken) return this.refreshing.promise;
    const promise = this.refreshAccessToken(refreshToken)
      .then((accessToken) => {
        // The user may have signed out or in while the request ran: then its answer is about an old session.
        if (this.store.get().refreshToken !== refreshToken) return this.store.get().refreshToken ? this.store.get() : null;
        if (accessToken === null) {
          this.store.set(NO_TOKENS);
          return null;
        }
        const tokens = { refreshToken, accessToken };
        this.store.set(tokens);
        return tokens;
      })
      .finally(() => {
        if (this.refreshing?.promise === promise) this.refreshing = undefined;
      });
    this.refreshing = { refreshToken, promise };
    return promise;
  }

  /** The server rejected this access token: forget it so the next request refreshes. */
  markAccessTokenExpired(accessToken: string): void {
    const tokens = this.store.get();
    if (tokens.accessToken === accessToken) this.store.set({ ...tokens, accessToken: null });
  }

  /** Stores the tokens of a sign-in. */
  signIn(tokens: { accessToken: string; refreshToken: string }): void {
    this.store.set(tokens);
  }

  /** Forgets both tokens (signed out). */
  clear(): void {
    this.store.set(NO_TOKENS);
  }
}
