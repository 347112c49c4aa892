import type { CachedStore, ClientApp, CurrentUser, Project, Team } from "@latchkey/core";
import { useStore } from "@nanostores/react";
import { useContext } from "react";
import { AppContext } from "./app-context.js";

/** The app of the nearest `AuthProvider`. Throws when there is none: a hook without an app is a wiring mistake. */
export function useApp(): ClientApp {
  const app = useContext(AppContext);
  if (!app) throw new Error("useApp() needs an <AuthProvider> above this component.");
  return app;
}

/**
 * The signed-in user: `null` when signed out, `undefined` while it is still loading (first render, or right
 * after a sign-in or sign-out while the user is fetched again). Re-renders whenever it changes.
 * A failed load (e.g. the server is unreachable) throws, so the nearest error boundary shows it.
 *
 * @example
 * ```ts
 * const user = useUser();
 * if (user === undefined) return "Loading…";
 * return user ? `Hello ${user.displayName}` : "Signed out";
 * ```
 */
export function useUser(): CurrentUser | null | undefined {
  return useLoaded(useApp().$user);
}

/** The signed-in user's teams (empty when signed out); `undefined` while loading; a failed load throws. */
export function useTeams(): Team[] | undefined {
  return useLoaded(useApp().$teams);
}

/** The project's public configuration (enabled sign-in methods, OAuth providers); `undefined` while loading. */
export function useProject(): Project | undefined {
  return useLoaded(useApp().$project);
}

/** A core store's value for rendering: the value when ready, `undefined` while loading, the error thrown. */
function useLoaded<T>(store: CachedStore<T>): T | undefined {
  const state = useStore(store);
  if (state.status === "error") throw state.error;
  return state.status === "ready" ? state.value : undefined;
}
