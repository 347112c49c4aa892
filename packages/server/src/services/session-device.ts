import type { Kysely } from "kysely";
import { requestScopeOf } from "../db/request-scope.js";

/**
 * What a request tells about the device it came from, recorded on the session it makes or refreshes: what the
 * sessions list shows (issue 16 §3: browser and OS, address, country).
 */
export interface SessionDevice {
  /** Only from a browser's requests (`isBrowserUserAgent`), like the country that goes with it. */
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
 * Whether a User-Agent is a browser's, by the words every browser's carries. The reference lists a session's
 * address and country (`last_used_at_end_user_ip_info`) only from its browser requests: a backend or a script
 * calling for a user is not where the user is.
 */
export function isBrowserUserAgent(userAgent: string | undefined): boolean {
  return userAgent !== undefined && /Mozilla|Chrome|Safari/.test(userAgent);
}

/** What the request pipeline puts in each request's database scope (db/request-scope.ts) for the services below. */
export interface RequestDeviceFacts {
  /** Computed only when a session is made or its use recorded: most requests do neither. */
  device: () => SessionDevice;
}

/**
 * The device of the request the database instance runs for. Sessions are made deep inside a dozen sign-in paths
 * (password, one-time code, passkey, OAuth, MFA, CLI, anonymous, handoff), none of which otherwise needs to know
 * about the request; the request pipeline puts it in the request's database scope once instead of every path
 * passing it down. Empty outside a request (scripts, background work, tests calling services directly).
 */
export function currentRequestDevice(db: Kysely<any>): SessionDevice {
  const facts = requestScopeOf(db)?.facts as Partial<RequestDeviceFacts> | undefined;
  return facts?.device?.() ?? {};
}
