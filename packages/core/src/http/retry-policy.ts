import { NETWORK_RETRY_ATTEMPTS, NETWORK_RETRY_BASE_DELAY_MILLIS, NETWORK_RETRY_JITTER } from "../constants.js";

/**
 * SPEC.md §9 network retry: 5 attempts, the wait before retry n (0-based) is 1000 ms · 2ⁿ times a jitter
 * factor drawn from [0.5, 1.5), so many clients failing together do not come back in lockstep.
 */
export function retryDelayMillis(failedAttempt: number, random: () => number): number {
  const jitter = NETWORK_RETRY_JITTER.min + random() * (NETWORK_RETRY_JITTER.max - NETWORK_RETRY_JITTER.min);
  return jitter * NETWORK_RETRY_BASE_DELAY_MILLIS * 2 ** failedAttempt;
}

export const MAX_ATTEMPTS = NETWORK_RETRY_ATTEMPTS;

/** Methods a repeat cannot change the effect of (RFC 9110 §9.2.2); only these are retried after a network failure. */
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/** `Retry-After` as seconds (RFC 9110 §10.2.3: delay-seconds or an HTTP date), in milliseconds. */
export function retryAfterMillis(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
