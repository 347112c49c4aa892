import type { Context } from "hono";
import { storedUserAgent, type RequestDeviceFacts, type SessionDevice } from "../services/session-device.js";
import { clientIp, trustedProxyCountry } from "./client-ip.js";
import type { AppEnv } from "./context.js";

/**
 * The request's device (address, User-Agent, country from a trusted proxy) for the services that make or refresh
 * a session (services/session-device.ts). Worked out on first use, and at most once: most requests make none.
 */
export function requestDeviceFacts(c: Context<AppEnv>): RequestDeviceFacts {
  let device: SessionDevice | undefined;
  return {
    device: () => (device ??= { ip: clientIp(c), userAgent: storedUserAgent(c.req.header("user-agent")), countryCode: trustedProxyCountry(c) }),
  };
}
