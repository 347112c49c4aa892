import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const serverDir = fileURLToPath(new URL("../..", import.meta.url));

/**
 * vitest global setup: the server's and protocol's sources bundled once for the run (source-bundle.mjs), which the
 * projects starting servers in-process load in place of the sources (bundled-sources.ts). Built in a process of its
 * own (esbuild), in a directory of the run's own under packages/server/node_modules, where Node finds the same
 * packages for the bundle's imports as for the sources'. Without it the sources load as before, as they do with
 * LATCHKEY_TEST_BUNDLE_SOURCES=0 (to compare both, or to debug a module as vite-node loads it).
 */
export default async function setup(): Promise<() => void> {
  if (process.env.LATCHKEY_TEST_BUNDLE_SOURCES === "0") return () => {};
  const dir = `${serverDir}node_modules/.cache/latchkey-test-sources-${process.pid}`;
  try {
    await promisify(execFile)(process.execPath, ["test/support/source-bundle.mjs", dir], { cwd: serverDir });
    process.env.LATCHKEY_TEST_SOURCE_BUNDLE = dir;
  } catch (error) {
    console.warn(`Test files load the server's sources one by one: ${String(error)}`);
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
