import type { CachedStore, ClientApp, CurrentUser, Loadable, Project, Team } from "@latchkey/core";
import { useCallback, useContext, useEffect, useSyncExternalStore } from "react";
import { AppContext } from "./app-context.js";

/** The app of the nearest `AuthProvider`. Throws when there is none: a hook without an app is a wiring mistake. */
export function useApp(): ClientApp {
  const app = useContext(AppContext);
  if (!app) throw new Error("useApp() needs an <AuthProvider> above this component.");
  return app;
}

/**
 * The signed-in user: `null` when signed out, `undefined` while it is still loading (on the server and while
 * hydrating what it rendered, during the first load, or right after a sign-in or sign-out while the user is fetched
 * again). Re-renders whenever it changes.
 * A failed load (e.g. the server is unreachable) throws, so the nearest error boundary shows it.
 *
 * @example
 * ```ts
 * const user = useUser();
 * if (user === undefined) return "Loading…";
 * return user ? `Hello ${user.displayName}` : "Signed out";
 * ```
 */
export function useUser(options?: { or?: "return-null" }): CurrentUser | null | undefined;
export function useUser(options: { or: "redirect" | "throw" }): CurrentUser | undefined;
export function useUser(options: { or?: "redirect" | "throw" | "return-null" } = {}): CurrentUser | null | undefined {
  const app = useApp();
  const user = useLoaded(app.$user);
  const signedOut = user === null;
  // As the protocol's client does: `redirect` sends a signed-out visitor to sign-in (and reports "loading"
  // meanwhile), `throw` makes being signed out an error for the nearest error boundary.
  useEffect(() => {
    if (signedOut && options.or === "redirect") void app.redirectToSignIn({ replace: true });
  }, [app, signedOut, options.or]);
  if (signedOut && options.or === "redirect") return undefined;
  if (signedOut && options.or === "throw") throw new Error("useUser({ or: \"throw\" }): nobody is signed in.");
  return user;
}

/** The signed-in user's teams (empty when signed out); `undefined` while loading; a failed load throws. */
export function useTeams(): Team[] | undefined {
  return useLoaded(useApp().$teams);
}

/** The project's public configuration (enabled sign-in methods, OAuth providers); `undefined` while loading. */
export function useProject(): Project | undefined {
  return useLoaded(useApp().$project);
}

/**
 * A core store's state, the same on the server and in the browser's first pass over server-rendered HTML:
 * "loading" there (the server knows nothing of the session), and the store's own state once hydration is done,
 * when React renders again with it. A store may settle before hydration reaches a component (signed out, the
 * user is known without a request), and a component that rendered it then would not match the server's HTML
 * (React error #418). Components mounted after hydration (or in an app without server rendering) read the
 * store's current state at once. On the server no store is read, so nothing starts loading there.
 */
function useLoadable<T>(store: CachedStore<T>): Loadable<T> {
  const subscribe = useCallback((changed: () => void) => store.listen(() => changed()), [store]);
  return useSyncExternalStore(subscribe, () => store.get(), serverSnapshot);
}

const LOADING: Loadable<never> = Object.freeze({ status: "loading" });

function serverSnapshot(): Loadable<never> {
  return LOADING;
}

/** A core store's value for rendering: the value when ready, `undefined` while loading, the error thrown. */
export function useLoaded<T>(store: CachedStore<T>): T | undefined {
  const state = useLoadable(store);
  if (state.status === "error") throw state.error;
  return state.status === "ready" ? state.value : undefined;
}

/** What `useAuth()` tells a component about the session, Clerk-style. */
export interface AuthState {
  /** Whether the user is known yet (false on the server, while hydrating, and during the first load). */
  isLoaded: boolean;
  isSignedIn: boolean;
  user: CurrentUser | null;
  /** Why the user could not be loaded (e.g. the server is unreachable); the tree keeps rendering. */
  error: unknown;
  /** A valid access token for calling the app's own API, refreshed when needed; null when signed out. */
  getToken(): Promise<string | null>;
  /** `{ "x-stack-auth": … }`, the header a server-side app reads the session from (`requestTokenStore`). */
  getAuthHeaders(): Promise<Record<string, string>>;
}

/** The session as state, never by throwing: loading, signed in or out, and a load error as a value. */
export function useAuth(): AuthState {
  const app = useApp();
  const state = useLoadable(app.$user);
  const user = state.status === "ready" ? state.value : null;
  return {
    isLoaded: state.status === "ready",
    isSignedIn: user !== null,
    user,
    error: state.status === "error" ? state.error : null,
    getToken: async () => (await app.session.getTokens(ACCESS_TOKEN_MIN_VALIDITY_MS))?.accessToken ?? null,
    getAuthHeaders: async () => {
      const tokens = await app.session.getTokens(ACCESS_TOKEN_MIN_VALIDITY_MS);
      return { "x-stack-auth": JSON.stringify({ accessToken: tokens?.accessToken ?? null, refreshToken: tokens?.refreshToken ?? null }) };
    },
  };
}

/** How long a token handed to the app's own API must stay valid. */
const ACCESS_TOKEN_MIN_VALIDITY_MS = 20_000;
