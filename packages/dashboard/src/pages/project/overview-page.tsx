import type { ProjectMetrics } from "@latchkey/core";
import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../../components/query-state.js";
import { projectKey, useProjectAdmin, useProjectId } from "../../project-admin.js";
import { DailyChart } from "./overview/daily-chart.js";
import { Countries, RecentSignUps, SignInMethods } from "./overview/overview-lists.js";
import "./overview/overview.css";

/**
 * The project's Overview: its users in figures (`GET /internal/metrics`): how many there are, sign-ups and
 * active users per day as charts, the sign-in methods they hold, the newest users and their countries.
 */
export function OverviewPage() {
  const projectId = useProjectId();
  const admin = useProjectAdmin(projectId);
  const metrics = useQuery({ queryKey: [...projectKey(projectId), "metrics"], queryFn: () => admin.getMetrics() });
  return (
    <QueryState query={metrics} what="the project's figures">
      {(data) => <Figures projectId={projectId} metrics={data} />}
    </QueryState>
  );
}

function Figures({ projectId, metrics }: { projectId: string; metrics: ProjectMetrics }) {
  const signUps = metrics.dailySignUps.reduce((sum, day) => sum + day.count, 0);
  return (
    <div className="overview-grid">
      <section className="dashboard-card overview-wide" aria-labelledby="overview-users">
        <h2 id="overview-users">Users</h2>
        <dl className="overview-figures">
          <div>
            <dt>Total users</dt>
            <dd>{metrics.totalUsers}</dd>
          </div>
          <div>
            <dt>Sign-ups, last {metrics.dailySignUps.length} days</dt>
            <dd>{signUps}</dd>
          </div>
          <div>
            <dt>Active today</dt>
            <dd>{metrics.dailyActiveUsers.at(-1)?.count ?? 0}</dd>
          </div>
        </dl>
      </section>
      <section className="dashboard-card" aria-labelledby="overview-sign-ups">
        <h2 id="overview-sign-ups">Daily sign-ups</h2>
        <DailyChart title="Daily sign-ups" days={metrics.dailySignUps} unit="sign-up" />
      </section>
      <section className="dashboard-card" aria-labelledby="overview-active">
        <h2 id="overview-active">Daily active users</h2>
        <DailyChart title="Daily active users" days={metrics.dailyActiveUsers} unit="active user" />
      </section>
      <section className="dashboard-card" aria-labelledby="overview-recent">
        <h2 id="overview-recent">Recent sign-ups</h2>
        <RecentSignUps projectId={projectId} users={metrics.recentSignUps} />
      </section>
      <section className="dashboard-card" aria-labelledby="overview-methods">
        <h2 id="overview-methods">Sign-in methods</h2>
        <SignInMethods methods={metrics.signInMethods} />
      </section>
      <section className="dashboard-card" aria-labelledby="overview-countries">
        <h2 id="overview-countries">Countries</h2>
        <Countries countries={metrics.usersByCountry} />
      </section>
    </div>
  );
}
