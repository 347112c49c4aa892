import { BlockList, isIP } from "node:net";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import type { AccessType, AppEnv } from "./context.js";
import { requestCountry } from "../services/user-activity.js";

/**
 * Which peers are the deployment's own reverse proxies (LATCHKEY_TRUSTED_PROXIES: addresses and CIDR ranges,
 * comma-separated). Only their `X-Forwarded-For` is believed: anyone else could write any address there and
 * escape the per-address limits.
 */
export function parseTrustedProxies(list: string | undefined): BlockList {
  const proxies = new BlockList();
  for (const entry of (list ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const [address, bits] = entry.split("/");
    const type = isIP(address!) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) proxies.addAddress(address!, type);
    else proxies.addSubnet(address!, Number(bits), type);
  }
  return proxies;
}

/** Whether every entry of LATCHKEY_TRUSTED_PROXIES is an address or an address/prefix (for the settings check). */
export function trustedProxiesProblem(list: string): string | undefined {
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
  if (!peer || !isTrusted(proxies, peer)) return peer;
  const forwarded = (c.req.header("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter((s) => isIP(s));
  for (let i = forwarded.length - 1; i >= 0; i--) {
    if (!isTrusted(proxies, forwarded[i]!)) return forwarded[i];
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
  const country = requestCountry((name) => c.req.header(name));
  if (country === null) return undefined;
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
  if (!peer || !isTrusted(c.get("deps").env.trustedProxies, peer)) return undefined;
  return country;
}

function isTrusted(proxies: BlockList, address: string): boolean {
  const mapped = address.startsWith("::ffff:") ? address.slice(7) : address;
  return proxies.check(mapped, isIP(mapped) === 6 ? "ipv6" : "ipv4");
}

/**
 * The address to count a request's attempts against (services/auth-throttle.ts): the client's, for client
 * access. Undefined for server and admin callers: they hold a secret key, and an app's backend speaks for all
 * of its users from one address, so counting it would let one user's typos slow everyone's.
 */
export function attemptIp(c: Context<AppEnv>, accessType: AccessType): string | undefined {
  return accessType === "client" ? clientIp(c) : undefined;
}
