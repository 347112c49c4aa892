import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What a request tells about the device it came from, recorded on the session it makes or refreshes: what the
 * sessions list shows (issue 16 §3: browser and OS, address, country).
 */
export interface SessionDevice {
  ip?: string;
  userAgent?: string;
  /** ISO 3166-1 alpha-2, only as a trusted proxy reported it (http/session-device.ts). */
  countryCode?: string;
}

/** Longer User-Agents are cut (migrations/0022_session_devices.sql): no real browser's comes near. */
export const USER_AGENT_MAX_LENGTH = 512;

/** The User-Agent as stored: trimmed, cut to USER_AGENT_MAX_LENGTH, and absent when empty. */
export function storedUserAgent(header: string | undefined): string | undefined {
  // Cut by code points, so a character outside the BMP is never split into half a surrogate pair.
  const trimmed = Array.from(header?.trim() ?? "").slice(0, USER_AGENT_MAX_LENGTH).join("");
  return trimmed === "" ? undefined : trimmed;
}

/**
 * The device of the request being handled. Sessions are made deep inside a dozen sign-in paths (password,
 * one-time code, passkey, OAuth, MFA, CLI, anonymous, handoff), none of which otherwise needs to know about the
 * request; the request pipeline sets it once instead of every path passing it down. Computed only when a session
 * is made, since most requests make none.
 */
const requestDevice = new AsyncLocalStorage<() => SessionDevice>();

export function withRequestDevice<T>(device: () => SessionDevice, run: () => Promise<T>): Promise<T> {
  return requestDevice.run(device, run);
}

/** The current request's device; empty outside a request (scripts, tests calling services directly). */
export function currentRequestDevice(): SessionDevice {
  return requestDevice.getStore()?.() ?? {};
}
