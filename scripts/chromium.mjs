#!/usr/bin/env node
// The Chromium every browser test uses: web-test-runner (web-test-runner.config.mjs) and the playwright-core
// end-to-end tests all call `chromiumPath()`, so they agree on one executable. `npm test` runs this file first
// (`node scripts/chromium.mjs`): it names the browser it found or, as root with apt-get, installs Debian's
// `chromium`; otherwise it stops with one line saying how to get one, instead of every browser test timing out.
import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";

/** Looked for in this order after CHROME_PATH (and the older LATCHKEY_CHROMIUM): Debian's, then Chrome's. */
export const KNOWN_LOCATIONS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/opt/google/chrome/chrome",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
];

/** Names looked up on PATH when none of the known locations has a browser. */
export const COMMAND_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"];

export const HOW_TO_GET_ONE =
  "No Chromium or Chrome found for the browser tests: install one (Debian/Ubuntu: `apt-get install chromium`) or set CHROME_PATH to its executable.";

export class NoChromiumError extends Error {}

function isExecutableFile(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The browser's executable, or a `NoChromiumError` whose message is the one line to show. A browser named
 * in CHROME_PATH must be there: a wrong path is reported rather than passed over for another browser.
 */
export function chromiumPath({ env = process.env, knownLocations = KNOWN_LOCATIONS } = {}) {
  for (const variable of ["CHROME_PATH", "LATCHKEY_CHROMIUM"]) {
    const named = env[variable];
    if (!named) continue;
    if (isExecutableFile(named)) return named;
    throw new NoChromiumError(`${variable}=${named} is not an executable file: point it at a Chromium or Chrome executable, or unset it to look in the usual places.`);
  }
  const found = knownLocations.find(isExecutableFile);
  if (found) return found;
  for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
    for (const name of COMMAND_NAMES) if (isExecutableFile(join(dir, name))) return join(dir, name);
  }
  throw new NoChromiumError(HOW_TO_GET_ONE);
}

/** apt-get on PATH, for root only (installing needs it; a user would be asked for a password mid-test). */
function aptGet(env, isRoot) {
  if (!isRoot) return undefined;
  return (env.PATH ?? "").split(delimiter).filter(Boolean).map((dir) => join(dir, "apt-get")).find(isExecutableFile);
}

/**
 * `chromiumPath()`, or — found none, running as root where apt-get is — Debian's `chromium` installed first.
 * Messages go to `log` (one line each); a failed install is a `NoChromiumError` too.
 */
export function ensureChromium({ env = process.env, knownLocations = KNOWN_LOCATIONS, isRoot = process.getuid?.() === 0, log = console.error } = {}) {
  try {
    return chromiumPath({ env, knownLocations });
  } catch (error) {
    const apt = aptGet(env, isRoot);
    if (!(error instanceof NoChromiumError) || error.message !== HOW_TO_GET_ONE || !apt) throw error;
    log("No Chromium found for the browser tests: installing Debian's chromium with apt-get (a minute or two, once)…");
    const aptEnv = { ...env, DEBIAN_FRONTEND: "noninteractive" };
    for (const args of [["update", "-qq"], ["install", "-y", "-qq", "chromium"]]) {
      const run = spawnSync(apt, args, { env: aptEnv, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
      if (run.status !== 0) {
        const reason = (run.stderr ?? "").trim().split("\n").at(-1) || run.error?.message || `exit code ${run.status}`;
        throw new NoChromiumError(`Installing chromium with apt-get failed (apt-get ${args[0]}: ${reason}). ${HOW_TO_GET_ONE}`);
      }
    }
    return chromiumPath({ env, knownLocations });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    console.log(`Browser tests use ${ensureChromium()}`);
  } catch (error) {
    if (!(error instanceof NoChromiumError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
