import { BlockList, isIP } from "node:net";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import type { AccessType, AppEnv } from "./context.js";
import { requestCountry } from "../services/user-activity.js";
import { requestHeader } from "./dialect.js";

/**
 * A comma-separated list of addresses and CIDR ranges as a BlockList: the deployment's own reverse proxies
 * (LATCHKEY_TRUSTED_PROXIES: only their `X-Forwarded-For` is believed, as anyone else could write any address
 * there and escape the per-address limits), or the clients never counted per address (LATCHKEY_RATE_LIMIT_EXEMPT).
 */
export function parseAddressList(list: string | undefined, into = new BlockList()): BlockList {
  for (const entry of (list ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const [address, bits] = entry.split("/");
    const type = isIP(address!) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) into.addAddress(address!, type);
    else into.addSubnet(address!, Number(bits), type);
  }
  return into;
}

/** Loopback clients: in dev mode they are the developer and their own test suite, not an attacker to slow down. */
export const LOOPBACK_RANGES = "127.0.0.0/8,::1";

/** Whether every entry of an address list is an address or an address/prefix (for the settings check). */
export function addressListProblem(list: string): string | undefined {
  for (const entry of list.split(",").map((s) => s.trim()).filter(Boolean)) {
    const [address, bits, extra] = entry.split("/");
    const version = isIP(address!);
    const maxBits = version === 6 ? 128 : 32;
    if (!version || extra !== undefined || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= maxBits))) {
      return `"${entry}" is not an IP address or CIDR range`;
    }
  }
  return undefined;
}

/**
 * The caller's address: the socket's peer, or — when that peer is a trusted proxy — the nearest address in
 * `X-Forwarded-For` that is not one of ours (proxies append, so the rightmost untrusted entry is the one a
 * trusted proxy saw). Undefined without a socket (requests handed to the app in-process).
 */
export function clientIp(c: Context<AppEnv>): string | undefined {
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
  const proxies = c.get("deps").env.trustedProxies;
  if (!peer || !inList(proxies, peer)) return peer;
  const forwarded = (c.req.header("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter((s) => isIP(s));
  for (let i = forwarded.length - 1; i >= 0; i--) {
    if (!inList(proxies, forwarded[i]!)) return forwarded[i];
  }
  return forwarded[0] ?? peer;
}

/**
 * The client's country as the deployment's edge proxy reports it (`cf-ipcountry`, `x-vercel-ip-country`), only
 * when the request came through one of LATCHKEY_TRUSTED_PROXIES: from anyone else the header is whatever the
 * caller wrote.
 */
export function trustedProxyCountry(c: Context<AppEnv>): string | undefined {
  // Most requests name no country; finding the peer and checking it against the list costs more than the headers.
  const country = requestCountry((name) => requestHeader(c, name));
  if (country === null) return undefined;
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
  if (!peer || !inList(c.get("deps").env.trustedProxies, peer)) return undefined;
  return country;
}

function inList(list: BlockList, address: string): boolean {
  const mapped = address.startsWith("::ffff:") ? address.slice(7) : address;
  return list.check(mapped, isIP(mapped) === 6 ? "ipv6" : "ipv4");
}

/**
 * The client's address to count attempts against (services/auth-throttle.ts), or undefined when it is exempt
 * from per-address limits (LATCHKEY_RATE_LIMIT_EXEMPT, and loopback in dev mode). Per-account limits count
 * regardless.
 */
export function countedClientIp(c: Context<AppEnv>): string | undefined {
  const ip = clientIp(c);
  return ip === undefined || inList(c.get("deps").env.rateLimitExempt, ip) ? undefined : ip;
}

/**
 * The address to count a request's attempts against: the client's, for client access (unless exempt).
 * Undefined for server and admin callers: they hold a secret key, and an app's backend speaks for all of its
 * users from one address, so counting it would let one user's typos slow everyone's.
 */
export function attemptIp(c: Context<AppEnv>, accessType: AccessType): string | undefined {
  return accessType === "client" ? countedClientIp(c) : undefined;
}
