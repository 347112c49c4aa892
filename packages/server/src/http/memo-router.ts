import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";

/** Paths remembered; past this the memory starts over (a client naming many paths only loses the shortcut). */
const MAX_REMEMBERED = 2_000;

/**
 * Hono's default router with what it found for each method and path remembered: the API has some 300 routes and
 * the one behind a path never changes once the app is built, while walking the route tree cost a twentieth of the
 * CPU of a cached read (`GET /users/me`). A route added later (there are none once the server listens) forgets
 * everything remembered.
 */
export class MemoRouter<T> implements Router<T> {
  readonly name = "MemoRouter";
  private readonly inner: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter<T>(), new TrieRouter<T>()] });
  private readonly remembered = new Map<string, Result<T>>();

  add(method: string, path: string, handler: T): void {
    this.remembered.clear();
    this.inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    let result = this.remembered.get(key);
    if (result === undefined) {
      result = this.inner.match(method, path);
      if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
      this.remembered.set(key, result);
    }
    return result;
  }
}
