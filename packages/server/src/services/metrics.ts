import type { MetricsResponse } from "@latchkey/protocol/schemas";
import { sql } from "kysely";
import type { Db } from "../db/connect.js";
import { utcDay } from "./user-activity.js";
import { completeUserRecords, renderServerUser } from "./user-read.js";
import type { RestrictionPolicy } from "./user-restrictions.js";

/**
 * `GET /internal/metrics`: a project's user figures, in the protocol's shapes. Days are UTC days; the series
 * cover today and the 30 days before it, oldest first, with a zero for days without any. Anonymous users
 * count only when asked for (`includeAnonymous`).
 */

const SERIES_DAYS = 31;
const RECENT_USERS = 5;

type DataPoints = MetricsResponse["daily_users"];

export async function projectMetrics(
  db: Db,
  projectId: string,
  options: { includeAnonymous: boolean; restrictionPolicy: RestrictionPolicy; now?: Date },
): Promise<MetricsResponse> {
  const now = options.now ?? new Date();
  const days = Array.from({ length: SERIES_DAYS }, (_, i) => utcDay(new Date(now.getTime() - (SERIES_DAYS - 1 - i) * 86_400_000)));
  const users = () => {
    const query = db.selectFrom("users").where("users.project_id", "=", projectId);
    return options.includeAnonymous ? query : query.where("users.is_anonymous", "=", false);
  };

  const [total, signUps, active, countries, recentlyRegistered, recentlyActive, loginMethods] = await Promise.all([
    users().select((eb) => eb.fn.countAll<string>().as("count")).executeTakeFirstOrThrow(),
    users()
      .select([sql<string>`to_char(users.created_at at time zone 'UTC', 'YYYY-MM-DD')`.as("day"), (eb) => eb.fn.countAll<string>().as("count")])
      .where("users.created_at", ">=", new Date(`${days[0]}T00:00:00Z`))
      .groupBy(sql`1`)
      .execute(),
    activeUsersPerDay(db, projectId, days[0]!, options.includeAnonymous),
    usersByCountry(db, projectId, options.includeAnonymous),
    users().selectAll("users").orderBy("users.created_at", "desc").orderBy("users.id", "desc").limit(RECENT_USERS).execute(),
    // The users given an access token most recently, as the reference's activity events order them: a user never
    // given one (made by a server, never signed in) is not active.
    users()
      .innerJoin(
        (eb) =>
          eb
            .selectFrom("user_activity_days")
            .select(["user_id", (e) => e.fn.max("last_token_at").as("last_token_at")])
            .where("project_id", "=", projectId)
            .where("last_token_at", "is not", null)
            .groupBy("user_id")
            .as("t"),
        (join) => join.onRef("t.user_id", "=", "users.id"),
      )
      .selectAll("users")
      .select("t.last_token_at")
      .orderBy("t.last_token_at", "desc")
      .orderBy("users.id", "desc")
      .limit(RECENT_USERS)
      .execute(),
    loginMethodCounts(db, projectId),
  ]);

  const series = (rows: { day: string; count: string | number | bigint }[]): DataPoints => {
    const byDay = new Map(rows.map((row) => [row.day, Number(row.count)]));
    return days.map((date) => ({ date, activity: byDay.get(date) ?? 0 }));
  };
  // Their last activity as shown is at least their last token (the user row's is written at most once a minute).
  const recentUsers = recentlyActive.map(({ last_token_at, ...user }) => ({
    ...user,
    last_active_at: last_token_at && last_token_at > user.last_active_at ? last_token_at : user.last_active_at,
  }));
  const [registered, recent] = await Promise.all([completeUserRecords(db, recentlyRegistered), completeUserRecords(db, recentUsers)]);
  return {
    total_users: Number(total.count),
    daily_users: series(signUps),
    daily_active_users: series(active),
    users_by_country: countries,
    recently_registered: registered.map((record) => renderServerUser(record, options.restrictionPolicy)),
    recently_active: recent.map((record) => renderServerUser(record, options.restrictionPolicy)),
    login_methods: loginMethods,
  };
}

/**
 * Users active on each day since `since`: the project's users with a recorded day, and the users deleted since
 * (counted per day when they were deleted, migrations/0032_*.sql).
 */
async function activeUsersPerDay(db: Db, projectId: string, since: string, includeAnonymous: boolean): Promise<{ day: string; count: string | number }[]> {
  const rows = await sql<{ day: string; count: string | number }>`
    select day, sum(count) as count from (
      select to_char(a.day, 'YYYY-MM-DD') as day, count(*) as count
      from user_activity_days a
      join users u on u.id = a.user_id
      where a.project_id = ${projectId} and a.day >= ${since}::date and (${includeAnonymous} or not u.is_anonymous)
      group by a.day
      union all
      select to_char(d.day, 'YYYY-MM-DD') as day, case when ${includeAnonymous} then d.users else d.users - d.anonymous_users end as count
      from deleted_user_activity_days d
      where d.project_id = ${projectId} and d.day >= ${since}::date
    ) counted
    group by day
  `.execute(db);
  return rows.rows;
}

/** Users by the country of their latest activity that had one; users without a known country are left out. */
async function usersByCountry(db: Db, projectId: string, includeAnonymous: boolean): Promise<Record<string, number>> {
  const rows = await sql<{ country_code: string; count: string | number }>`
    select country_code, count(*) as count from (
      select distinct on (a.user_id) a.country_code
      from user_activity_days a
      join users u on u.id = a.user_id
      where a.project_id = ${projectId} and a.country_code is not null and (${includeAnonymous} or not u.is_anonymous)
      order by a.user_id, a.day desc
    ) latest
    group by country_code
    order by count desc, country_code
  `.execute(db);
  return Object.fromEntries(rows.rows.map((row) => [row.country_code, Number(row.count)]));
}

/**
 * How many sign-in methods of each kind the users hold: `password`, `otp` (one-time codes by email),
 * `passkey`. Kinds no user holds are left out, as the protocol's grouping leaves them out.
 */
async function loginMethodCounts(db: Db, projectId: string): Promise<{ method: string; count: number }[]> {
  const [users, passkeys] = await Promise.all([
    db
      .selectFrom("users")
      .select([
        (eb) => eb.fn.count<string>("password_hash").as("password"),
        sql<string>`count(*) filter (where otp_auth_enabled)`.as("otp"),
      ])
      .where("project_id", "=", projectId)
      .executeTakeFirstOrThrow(),
    db.selectFrom("passkey_credentials").select((eb) => eb.fn.countAll<string>().as("count")).where("project_id", "=", projectId).executeTakeFirstOrThrow(),
  ]);
  const counts = [
    { method: "password", count: Number(users.password) },
    { method: "otp", count: Number(users.otp) },
    { method: "passkey", count: Number(passkeys.count) },
  ];
  return counts.filter((entry) => entry.count > 0);
}
