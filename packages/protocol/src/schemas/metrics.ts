import { z } from "zod";
import { userServerRead } from "./users.js";

/**
 * `GET /internal/metrics` (admin): the project's user figures for the dashboard, in the protocol's shapes.
 * Anonymous users are left out of every figure unless `include_anonymous=true`.
 */

export const metricsQuery = z.object({ include_anonymous: z.enum(["true", "false"]).optional() });

/** One day of a 31-day series (today and the 30 days before it, UTC), oldest first. */
export const metricsDataPoint = z.strictObject({
  /** `YYYY-MM-DD` */
  date: z.string(),
  activity: z.number(),
});

export const metricsResponse = z.strictObject({
  total_users: z.number(),
  /** Users who signed up on each day. */
  daily_users: z.array(metricsDataPoint),
  /** Distinct users active on each day. */
  daily_active_users: z.array(metricsDataPoint),
  /** ISO 3166-1 alpha-2 country → users whose latest activity came from there (only users with a known country). */
  users_by_country: z.record(z.string(), z.number()),
  /** The five newest users. */
  recently_registered: z.array(userServerRead),
  /** The five users active most recently. */
  recently_active: z.array(userServerRead),
  /** How many sign-in methods of each kind the project's users hold (`password`, `otp`, `passkey`, an OAuth provider id). */
  login_methods: z.array(z.strictObject({ method: z.string(), count: z.number() })),
});
export type MetricsResponse = z.infer<typeof metricsResponse>;
