import { Listeners, NO_TOKENS, sameTokens, type TokenStore, type Tokens } from "./token-store.js";

/** Tokens kept in memory only: gone when the page or process goes. Optionally seeded (e.g. from a sign-in). */
export function memoryTokenStore(initial: Tokens = NO_TOKENS): TokenStore {
  let current = { ...initial };
  const listeners = new Listeners<Tokens>();
  return {
    get: () => current,
    set(tokens) {
      if (sameTokens(tokens, current)) return;
      current = { ...tokens };
      listeners.emit(current);
    },
    subscribe: (listener) => listeners.add(listener),
  };
}
