import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import type { Clock } from "../clock.js";

export interface JwksCacheOptions {
  url: string;
  fetch: typeof fetch;
  clock: Clock;
  /** Keys older than this are fetched again before use. */
  maxAgeMillis: number;
  /** A token naming a key the cached set lacks fetches the set again at most this often. */
  cooldownMillis: number;
}

/**
 * A project's public keys (its JWKS), fetched once and kept: verifying a token then needs no request. The
 * server publishes the key that will sign after the next rotation long before it signs (services/signing-keys.ts),
 * so a cached set verifies new tokens across a rotation; a key it has never seen (two rotations within the
 * cache's age) fetches the set again, at most once per cooldown so made-up key ids cannot flood the server.
 * jose's createRemoteJWKSet does much the same, but reads the time itself; this one takes a Clock, so tests
 * can age the cache without waiting.
 */
export class JwksCache {
  private keys: { resolve: JWTVerifyGetKey; fetchedAt: number } | undefined;
  private loading: Promise<JWTVerifyGetKey> | undefined;
  /** How many times the set was fetched (successfully or not): for tests and metrics. */
  fetches = 0;

  constructor(private readonly options: JwksCacheOptions) {}

  /** The cached key set, fetched first when there is none yet or it is older than the maximum age. */
  async current(): Promise<JWTVerifyGetKey> {
    const keys = this.keys;
    if (keys && this.options.clock.now() - keys.fetchedAt < this.options.maxAgeMillis) return keys.resolve;
    try {
      return await this.reload();
    } catch (error) {
      // An unreachable server must not sign everyone out of the app: aged keys still verify what they verified,
      // and are tried again after the cooldown rather than on every request (each waiting for the failure).
      if (!keys) throw error;
      this.keys = { resolve: keys.resolve, fetchedAt: this.options.clock.now() - this.options.maxAgeMillis + this.options.cooldownMillis };
      return keys.resolve;
    }
  }

  /** Fetches the set again because a token names an unknown key; undefined while the last fetch is too recent. */
  async afterUnknownKey(): Promise<JWTVerifyGetKey | undefined> {
    if (this.keys && this.options.clock.now() - this.keys.fetchedAt < this.options.cooldownMillis) return undefined;
    return this.reload();
  }

  /** One fetch at a time: concurrent requests that all find the cache empty share it. */
  private reload(): Promise<JWTVerifyGetKey> {
    this.loading ??= this.fetchKeys().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async fetchKeys(): Promise<JWTVerifyGetKey> {
    this.fetches += 1;
    let response: Response;
    try {
      response = await this.options.fetch(this.options.url, { headers: { accept: "application/json" } });
    } catch (cause) {
      throw new Error(`Could not fetch the project's public keys from ${this.options.url}: is the Latchkey server at that address reachable from here?`, { cause });
    }
    if (!response.ok) {
      const hint = response.status === 404 ? " Check the project id and baseUrl (the server's address, without /api/v1)." : "";
      throw new Error(`Fetching the project's public keys from ${this.options.url} answered ${response.status}.${hint}`);
    }
    const jwks = (await response.json()) as JSONWebKeySet;
    if (!Array.isArray(jwks?.keys)) throw new Error(`${this.options.url} did not answer a JSON Web Key Set ({ keys: [...] }).`);
    const resolve = createLocalJWKSet(jwks);
    this.keys = { resolve, fetchedAt: this.options.clock.now() };
    return resolve;
  }
}
