import { execFile } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const serverDir = fileURLToPath(new URL("../..", import.meta.url));

/**
 * vitest global setup: the server bundled once for the run from the current sources, as `npm start` runs it
 * (scripts/bundle.mjs), for the tests that start server processes (support/server-process.ts). Run from its sources
 * through tsx, each process compiled and loaded them module by module: ~5.9 against ~2.9 s of CPU per start (issue
 * 35). The CLI (cli.test.ts) and the standalone dev OpenID provider (oidc-provider-process.ts) are bundled beside it,
 * for the processes tests start from them (a CLI command from the sources cost ~2–3 s of CPU through tsx). The bundle
 * goes in a directory of the run's own inside packages/server, so that it finds the packages dist/
 * finds, and no `npm start` building dist/ meanwhile is disturbed. Without it the processes run from the sources.
 */
export default async function setup(): Promise<() => void> {
  const dir = `${serverDir}node_modules/.cache/latchkey-test-server-${process.pid}/`;
  try {
    mkdirSync(dir, { recursive: true });
    await promisify(execFile)(process.execPath, ["scripts/bundle.mjs", dir, "main", "cli", "dev-oauth/standalone"], { cwd: serverDir });
    process.env.LATCHKEY_TEST_SERVER_BUNDLE = `${dir}main.js`;
  } catch (error) {
    console.warn(`Server processes run from the sources: ${String(error)}`);
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
