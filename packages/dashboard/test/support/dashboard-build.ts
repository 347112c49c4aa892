import { ensureBuilt } from "../../../../demo/test/support/ensure-built.js";

/**
 * The dashboard's tests drive it as the server serves it, from packages/dashboard/dist: built when missing or
 * stale (demo/test/support/ensure-built.ts).
 */
export function ensureDashboardBuilt(): Promise<void> {
  return ensureBuilt(["packages/dashboard/dist/index.html"]);
}
