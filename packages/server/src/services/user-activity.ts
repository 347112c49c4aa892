import type { Db } from "../db/connect.js";

/**
 * Which days each user was active, and from which country (migrations/0015_signing_keys_and_activity.sql):
 * what `GET /internal/metrics` counts as daily active users and users by country. The request pipeline
 * records a day for every request made signed in (http/user-activity.ts).
 */

/** The calendar day (UTC) of a moment, `YYYY-MM-DD`: the metrics' days are UTC days. */
export function utcDay(moment: Date): string {
  return moment.toISOString().slice(0, 10);
}

// Today's day string, worked out again only when the day ends: every signed-in request asks for it.
let today: { day: string; endsAt: number } | undefined;
export function currentUtcDay(): string {
  const now = Date.now();
  if (!today || now >= today.endsAt) {
    const start = new Date(now);
    start.setUTCHours(0, 0, 0, 0);
    today = { day: utcDay(start), endsAt: start.getTime() + 86_400_000 };
  }
  return today.day;
}

/**
 * The country a request came from, as the edge in front of the server reports it: Cloudflare's
 * `cf-ipcountry`, else Vercel's `x-vercel-ip-country` (ISO 3166-1 alpha-2). Cloudflare's `XX` (unknown) and
 * `T1` (Tor) name no country. Null when neither header names one.
 */
export function requestCountry(header: (name: string) => string | undefined): string | null {
  for (const name of ["cf-ipcountry", "x-vercel-ip-country"]) {
    const value = header(name)?.trim().toUpperCase();
    if (value && /^[A-Z]{2}$/.test(value) && value !== "XX" && value !== "T1") return value;
  }
  return null;
}

// Days already recorded by this process (user, day, country), so the hot paths write once a day per user.
// Only spares writes: the database row is the record, and a second process writing the same row changes nothing.
const recorded = new Set<string>();
const RECORDED_MAX = 100_000;

/** Records that the user was active today (and where from, when known); a no-op when already recorded here. */
export async function recordUserActivity(db: Db, activity: { projectId: string; userId: string; country: string | null; now?: Date }): Promise<void> {
  const day = activity.now ? utcDay(activity.now) : currentUtcDay();
  const key = `${activity.userId}|${day}|${activity.country ?? ""}`;
  if (recorded.has(key)) return;
  await db
    .insertInto("user_activity_days")
    .values({ project_id: activity.projectId, user_id: activity.userId, day, country_code: activity.country })
    // A known country replaces an unknown or older one of the same day: the latest says where the user is.
    .onConflict((oc) =>
      oc.columns(["user_id", "day"]).doUpdateSet({ country_code: (eb) => eb.ref("excluded.country_code") }).where("excluded.country_code", "is not", null),
    )
    .execute();
  if (recorded.size >= RECORDED_MAX) recorded.clear();
  recorded.add(key);
}
