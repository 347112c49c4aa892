import { metricsQuery, metricsResponse } from "@latchkey/protocol/schemas";
import { defineRoute } from "../http/route.js";
import { projectMetrics } from "../services/metrics.js";
import { flushTokenActivity } from "../services/token-activity.js";
import { restrictionPolicy } from "../services/user-restrictions.js";

/**
 * `GET /internal/metrics` (admin): the dashboard's figures. Activity and countries are recorded for each access
 * token given (services/token-activity.ts) and each request made signed in (http/user-activity.ts); the country
 * comes from the edge's `cf-ipcountry` or `x-vercel-ip-country` header, when a trusted proxy sent it.
 */
export const internalMetricsRoutes = [
  defineRoute({
    method: "get",
    path: "/internal/metrics",
    summary: "The project's user metrics",
    description:
      "Total users, sign-ups and active users per day (the last 31 UTC days), users by country, the five newest and the five " +
      "most recently active users, and the sign-in methods held. Anonymous users count only with `include_anonymous=true`.",
    tags: ["Projects"],
    access: ["admin"],
    request: { query: metricsQuery },
    response: { description: "The figures.", schema: metricsResponse },
    handler: async (c, { auth, query }) => {
      const { db } = c.get("deps");
      // The tokens this process gave since its last write of them count already (services/token-activity.ts).
      await flushTokenActivity(db);
      return projectMetrics(db, auth.project.id, { includeAnonymous: query.include_anonymous === "true", restrictionPolicy: restrictionPolicy(auth.project) });
    },
  }),
];
