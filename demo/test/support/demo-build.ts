import { ensureBuilt } from "./ensure-built.js";

/**
 * The e2e tests drive the demo as `npm start` serves it, so they need its built files: the elements bundles
 * (packages/elements/dist) and the React app (demo/react/dist), built when missing or stale (ensure-built.ts).
 */
export function ensureDemoBuilt(): Promise<void> {
  return ensureBuilt(["packages/elements/dist/latchkey.iife.js", "demo/react/dist/index.html"]);
}
