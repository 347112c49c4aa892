import type { MetricsResponse } from "@latchkey/protocol/schemas";
import { serverUserFromWire, type ServerUser, type WireServerUser } from "./users.js";

/** One UTC day of a series: `date` is `YYYY-MM-DD`, as the server names the day (no time zone shift). */
export interface MetricsDay {
  date: string;
  count: number;
}

/** A project's user figures (`GET /internal/metrics`), for the dashboard's Overview. */
export interface ProjectMetrics {
  totalUsers: number;
  /** Sign-ups on each of the last 31 UTC days, oldest first (zero for days without any). */
  dailySignUps: MetricsDay[];
  /** Distinct users active on each of the last 31 UTC days, oldest first. */
  dailyActiveUsers: MetricsDay[];
  /** ISO 3166-1 alpha-2 country → users whose latest activity came from there, most users first. */
  usersByCountry: Array<{ country: string; count: number }>;
  /** The five newest users, newest first. */
  recentSignUps: ServerUser[];
  /** The five users active most recently. */
  recentlyActive: ServerUser[];
  /** How many sign-in methods of each kind users hold (`password`, `otp`, `passkey`, an OAuth provider id); kinds nobody holds are left out. */
  signInMethods: Array<{ method: string; count: number }>;
}

export function projectMetricsFromWire(wire: MetricsResponse): ProjectMetrics {
  const days = (points: MetricsResponse["daily_users"]) => points.map((point) => ({ date: point.date, count: point.activity }));
  return {
    totalUsers: wire.total_users,
    dailySignUps: days(wire.daily_users),
    dailyActiveUsers: days(wire.daily_active_users),
    usersByCountry: Object.entries(wire.users_by_country)
      .map(([country, count]) => ({ country, count }))
      .sort((a, b) => b.count - a.count || a.country.localeCompare(b.country)),
    recentSignUps: wire.recently_registered.map((user) => serverUserFromWire(user as WireServerUser)),
    recentlyActive: wire.recently_active.map((user) => serverUserFromWire(user as WireServerUser)),
    signInMethods: wire.login_methods.map((entry) => ({ method: entry.method, count: entry.count })),
  };
}
