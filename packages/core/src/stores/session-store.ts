import { atom, onStart, onStop, type ReadableAtom } from "nanostores";
import { readAccessToken } from "../session/access-token.js";
import type { TokenStore, Tokens } from "../token-stores/token-store.js";

/** What the app knows locally about the session, without asking the server. */
export type SessionState =
  | { status: "signed-out" }
  | {
      status: "signed-in";
      /** From the access token; `null` while only a refresh token is held (not yet refreshed). */
      userId: string | null;
      isAnonymous: boolean;
      accessTokenExpiresAt: Date | null;
    };

export function sessionStateOf(tokens: Tokens): SessionState {
  if (!tokens.refreshToken && !tokens.accessToken) return { status: "signed-out" };
  const claims = tokens.accessToken ? readAccessToken(tokens.accessToken) : null;
  return {
    status: "signed-in",
    userId: claims?.userId ?? null,
    isAnonymous: claims?.isAnonymous ?? false,
    accessTokenExpiresAt: claims?.expiresAt ? new Date(claims.expiresAt) : null,
  };
}

/** `$session`: follows the token store while anyone listens. */
export function sessionStore(tokenStore: TokenStore): ReadableAtom<SessionState> {
  const $session = atom<SessionState>(sessionStateOf(tokenStore.get()));
  let unsubscribe: (() => void) | undefined;
  onStart($session, () => {
    $session.set(sessionStateOf(tokenStore.get()));
    unsubscribe = tokenStore.subscribe((tokens) => $session.set(sessionStateOf(tokens)));
  });
  onStop($session, () => unsubscribe?.());
  return $session;
}
