#!/usr/bin/env node
// `npm pack -w @latchkey/server` runs this first (prepack): the server as an installable package (issue 34),
// in dist/package/ — one ES module bundle, latchkey-server.js (the `latchkey-server` bin), and runtime/, the
// files the server reads at run time, laid out as in the repository (migrations, the email sandbox's own
// scripts, the elements' bundles, the built dashboard). Nothing is built on the user's machine.
//
// Why an esbuild bundle rather than tsc's output: the workspace packages (@latchkey/protocol), which are not on
// the registry, and every pure-JavaScript dependency go inside it, so the package depends only on what must stay
// a file of its own (below) and installs ~110 fewer packages; Node also loads one file in a fraction of the time
// it takes to load ~600 (issue 17). The repository's `npm start` bundle (bundle.mjs) stays as it is.
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleSources } from "./bundle.mjs";
import { BUILDS, dateOutputs, staleness } from "../../../scripts/builds.mjs";

const root = fileURLToPath(new URL("../../../", import.meta.url));
export const PACKAGE_DIR = `${root}packages/server/dist/package/`;
const BUNDLE = `${PACKAGE_DIR}latchkey-server.js`;
const RUNTIME = `${PACKAGE_DIR}runtime/`;

/**
 * Left to Node's own loading, and so the package's `dependencies`: what finds files next to its code at run time
 * (PGlite's WebAssembly, Argon2's native addon, Pino's worker-thread transports, pg's optional native binding,
 * esbuild's binary — the email renderer compiles templates with it —, Stripe.js's file the purchase page serves),
 * and the dev OAuth provider (large, loaded only in dev mode). The email sandbox process (runtime/…/email-rendering)
 * loads isolated-vm, also a dependency; the library script it runs in its isolates (React, React Email, arktype,
 * html-to-text) is built here, and Scalar's browser file (vendor/scalar/) is copied here: neither needs packages installed.
 */
const EXTERNAL = ["@electric-sql/pglite", "@node-rs/argon2", "pino", "pg", "pg-native", "oidc-provider", "@stripe/stripe-js", "esbuild"];

/** Files the server reads at run time, relative to the repository (directories with everything in them). */
const RUNTIME_FILES = [
  "packages/server/src/db/migrations",
  "packages/server/src/email-rendering/sandbox-process.mjs",
  "packages/server/src/email-rendering/sandbox-library.mjs",
  "packages/server/src/email-rendering/sandbox-limits.mjs",
  "packages/server/src/email-rendering/sandbox-frames.mjs",
  "packages/dashboard/dist",
];
/** Of the elements' dist/, the script-tag bundles and their locales (not the library's per-module output). */
const ELEMENTS_DIST = "packages/elements/dist";

/** The elements' bundles and the dashboard, built by the repository's own build commands when stale. */
function buildWhatTheServerServes() {
  const needed = BUILDS.filter((b) => b.name.includes("web components") || b.name.includes("dashboard"));
  for (const step of needed) {
    if (!staleness(root, step)) continue;
    const startedAt = Date.now();
    console.log(`Building ${step.name}…`);
    const [command, ...args] = step.command;
    const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
    if (result.status !== 0) throw new Error(`${step.command.join(" ")} failed`);
    dateOutputs(root, step, startedAt);
  }
}

export async function buildPackage() {
  buildWhatTheServerServes();
  rmSync(PACKAGE_DIR, { recursive: true, force: true });
  // Each source module's files are copied under runtime/, at the module's place in the repository.
  await bundleSources({
    entry: `${root}packages/server/src/cli.ts`,
    outfile: BUNDLE,
    external: EXTERNAL,
    placeOf: (path) => join(RUNTIME, relative(root, path)),
    options: { legalComments: "linked" },
  });
  for (const path of RUNTIME_FILES) cpSync(join(root, path), join(RUNTIME, path), { recursive: true });
  const elements = join(root, ELEMENTS_DIST);
  for (const file of readdirSync(elements)) {
    if (/^latchkey[\w.-]*\.js$/.test(file)) cpSync(join(elements, file), join(RUNTIME, ELEMENTS_DIST, file));
  }
  cpSync(join(elements, "locales"), join(RUNTIME, ELEMENTS_DIST, "locales"), { recursive: true });
  const { buildFromSources } = await import("../src/email-rendering/sandbox-library.mjs");
  writeFileSync(join(RUNTIME, "packages/server/src/email-rendering/sandbox-library.prebuilt.js"), await buildFromSources());
  cpSync(join(root, "packages/server/vendor/scalar/standalone.js"), join(RUNTIME, "packages/server/src/routes/scalar-standalone.js"));
  const size = readFileSync(BUNDLE).length;
  console.log(`Packaged the server in ${relative(root, PACKAGE_DIR)} (latchkey-server.js: ${(size / 1024 / 1024).toFixed(1)} MB)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await buildPackage();
