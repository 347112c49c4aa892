import type { MiddlewareHandler } from "hono";
import { storedUserAgent, withRequestDevice } from "../services/session-device.js";
import { clientIp, trustedProxyCountry } from "./client-ip.js";
import type { AppEnv } from "./context.js";

/**
 * Makes the request's device (address, User-Agent, country from a trusted proxy) known to the services that
 * make or refresh a session (services/session-device.ts). Read only if one does.
 */
export function requestDevice(): MiddlewareHandler<AppEnv> {
  return async function requestDevice(c, next) {
    await withRequestDevice(() => ({ ip: clientIp(c), userAgent: storedUserAgent(c.req.header("user-agent")), countryCode: trustedProxyCountry(c) }), next);
  };
}
