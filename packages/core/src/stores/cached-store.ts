import { atom, onStart, onStop, type ReadableAtom } from "nanostores";
import type { Clock } from "../clock.js";
import { STORE_DROP_DELAY_MILLIS } from "../constants.js";

/** A value loaded from the server: still loading, there, or failed. */
export type Loadable<T> = { status: "loading" } | { status: "ready"; value: T } | { status: "error"; error: unknown };

export interface CachedStore<T> extends ReadableAtom<Loadable<T>> {
  /**
   * Loads again after a change (SPEC.md §4: responses are refreshed after each change). While nobody
   * listens, the cache is only dropped, so the next subscriber loads fresh data.
   */
  refresh(): Promise<void>;
}

/**
 * A nanostores atom over a server read: lazy (loads when the first subscriber arrives), cached while
 * anyone listens, and dropped 5 s after the last one leaves (SPEC.md §9 cache invalidation delay).
 */
export function cachedStore<T>(load: () => Promise<T>, clock: Clock): CachedStore<T> {
  const $store = atom<Loadable<T>>({ status: "loading" });
  let loaded = false;
  let generation = 0;
  let cancelDrop: (() => void) | undefined;

  async function reload(): Promise<void> {
    const mine = ++generation;
    loaded = true;
    try {
      const value = await load();
      if (mine === generation) $store.set({ status: "ready", value });
    } catch (error) {
      if (mine === generation) $store.set({ status: "error", error });
    }
  }

  function drop(): void {
    generation++;
    loaded = false;
    $store.set({ status: "loading" });
  }

  onStart($store, () => {
    cancelDrop?.();
    cancelDrop = undefined;
    if (!loaded) void reload();
  });
  onStop($store, () => {
    cancelDrop = clock.setTimer(drop, STORE_DROP_DELAY_MILLIS);
  });

  return Object.assign($store, {
    async refresh() {
      if ($store.lc > 0) await reload();
      else drop();
    },
  });
}
