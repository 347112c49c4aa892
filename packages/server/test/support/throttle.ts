import { expect } from "vitest";
import type { ApiResponse } from "./api.js";

/** Shared checks of the brute-force limit suites (services/auth-throttle.ts). */

/** Makes `times` attempts, each of which must fail with `code` (not yet refused). */
export async function failTimes(times: number, code: string, attempt: (i: number) => Promise<ApiResponse>): Promise<void> {
  for (let i = 0; i < times; i++) {
    const response = await attempt(i);
    expect(response.body?.code, `attempt ${i + 1}: ${response.status} ${response.text}`).toBe(code);
  }
}

/** The limit's answer: a plain 429 whose `Retry-After` and text name the same wait. */
export function expectRefused(response: ApiResponse, seconds: number, what = "Too many failed attempts"): void {
  expect(response.status, response.text).toBe(429);
  expect(response.headers.get("retry-after")).toBe(String(seconds));
  expect(response.text).toBe(`${what}. Please try again in ${seconds} second${seconds === 1 ? "" : "s"}.`);
}

/** Retries until the block has passed (a condition, not a fixed sleep); blocks in these suites are seconds long. */
export async function afterTheWait(attempt: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await attempt();
    if (response.status !== 429 || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Attempts until one is refused with at least `seconds` of its block left, so that requests sent right after
 * it fall inside that block; an attempt let through in between must succeed (it lengthens the next block).
 */
export async function untilRefusedFor(seconds: number, attempt: () => Promise<ApiResponse>): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await attempt();
    if (response.status === 429 && Number(response.headers.get("retry-after")) >= seconds) return;
    if (response.status !== 429) expect(response.status, response.text).toBe(200);
    if (Date.now() > deadline) throw new Error(`no refusal with ${seconds} s left within a minute; the last answer: ${response.status} ${response.text}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
