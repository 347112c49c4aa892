/**
 * What the server writes into index.html when it serves the dashboard (packages/server/src/routes/dashboard.ts):
 * where its API is and the client key of the `internal` project, whose users are the dashboard's owners.
 */
export interface DashboardConfig {
  baseUrl: string;
  projectId: string;
  /** null when the server has no key to hand out (the internal project requires one and none is configured). */
  publishableClientKey: string | null;
  /** The server has no Stripe key: every project's payments run in test mode (absent from older servers). */
  paymentsTestMode?: boolean;
}

/** The id of the `<script type="application/json">` element that carries the config (the server's side names it too). */
const CONFIG_ELEMENT_ID = "latchkey-dashboard-config";

/** The config written into the page, or undefined when the page was not served by a Latchkey server. */
export function readDashboardConfig(): DashboardConfig | undefined {
  const text = document.getElementById(CONFIG_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  return JSON.parse(text) as DashboardConfig;
}
