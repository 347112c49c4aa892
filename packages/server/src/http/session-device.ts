import type { Context } from "hono";
import { isBrowserUserAgent, storedUserAgent, type RequestDeviceFacts, type SessionDevice } from "../services/session-device.js";
import type { RequestActivityFacts } from "../services/token-activity.js";
import { clientIp, trustedProxyCountry } from "./client-ip.js";
import type { AppEnv } from "./context.js";

/**
 * The request's device (address, User-Agent, country from a trusted proxy) for the services that make or refresh
 * a session (services/session-device.ts), and its country for the activity a new access token records
 * (services/token-activity.ts). Worked out on first use, and at most once: most requests make none.
 * The address and country only for a browser's request, as the reference's session lists show them.
 */
export function requestDeviceFacts(c: Context<AppEnv>): RequestDeviceFacts & RequestActivityFacts {
  let device: SessionDevice | undefined;
  const workOut = (): SessionDevice => {
    const userAgent = storedUserAgent(c.req.header("user-agent"));
    if (!isBrowserUserAgent(userAgent)) return { userAgent };
    return { ip: clientIp(c), userAgent, countryCode: trustedProxyCountry(c) };
  };
  // The user's activity takes the country of any request (a backend's too), as the metrics' countries always did.
  return { device: () => (device ??= workOut()), activityCountry: () => trustedProxyCountry(c) };
}
