import type { MetricsResponse } from "@latchkey/protocol/schemas";
import { projectMetricsFromWire, type ProjectMetrics } from "../wire/metrics.js";
import type { AppContext } from "./app-context.js";

/** An admin app's view of the project's users in figures (`GET /internal/metrics`), for dashboards. */
export function adminMetricsActions(ctx: AppContext) {
  return {
    /** Total users, daily sign-ups and active users (last 31 UTC days), countries, newest users, sign-in methods. Anonymous users count only with `includeAnonymous`. */
    async getMetrics(options: { includeAnonymous?: boolean } = {}): Promise<ProjectMetrics> {
      const query = options.includeAnonymous ? "?include_anonymous=true" : "";
      return projectMetricsFromWire(await ctx.call<MetricsResponse>({ method: "GET", path: `/internal/metrics${query}`, session: null }));
    },
  };
}
