import { lookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";

/**
 * Which addresses a webhook may be sent to. Outside dev mode (LATCHKEY_WEBHOOKS_ALLOW_PRIVATE_TARGETS) a project
 * admin must not be able to make the server call into its own network (SSRF): loopback, private, link-local
 * (cloud metadata), shared and unspecified addresses are refused. The check runs in the connection's own DNS
 * lookup, so a name that resolves differently a moment later (DNS rebinding) is caught too.
 */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv6");
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, "ipv4");
  if (family !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, "ipv4");
  return PRIVATE.check(address, "ipv6");
}

export class PrivateTargetError extends Error {
  readonly code = "EPRIVATETARGET";
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for http.request that only ever yields public addresses. */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const usable = addresses.filter((a) => !isPrivateAddress(a.address));
    if (usable.length === 0) return callback(new PrivateTargetError(`${hostname} resolves to a private or loopback address, which webhooks may not be sent to`), []);
    if (options.all) return callback(null, usable);
    callback(null, usable[0]!.address, usable[0]!.family);
  });
}

/** The error for a URL whose host is an IP literal on a refused network (connections to literals skip the lookup). */
export function privateLiteralTarget(url: URL): PrivateTargetError | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && isPrivateAddress(host)) return new PrivateTargetError(`${host} is a private or loopback address, which webhooks may not be sent to`);
  return undefined;
}
