import type { Tokens } from "../http/http-client.js";

export type { Tokens } from "../http/http-client.js";

/** Where a session's tokens live: cookies, memory, or the request a server is answering. */
export interface TokenStore {
  get(): Tokens;
  set(tokens: Tokens): void;
  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: (tokens: Tokens) => void): () => void;
}

export const NO_TOKENS: Tokens = Object.freeze({ accessToken: null, refreshToken: null });

export function sameTokens(a: Tokens, b: Tokens): boolean {
  return a.accessToken === b.accessToken && a.refreshToken === b.refreshToken;
}

/** A list of listeners, shared by the stores. */
export class Listeners<T> {
  private readonly listeners = new Set<(value: T) => void>();
  get size(): number {
    return this.listeners.size;
  }
  add(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  emit(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
}
