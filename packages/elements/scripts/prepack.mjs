// The elements' prepack (`npm pack -w @latchkey/elements`): the module build (dist/*.js and .d.ts, tsc) and the
// script-tag bundles next to it (dist/latchkey*.js, Vite), the latter only when older than their sources (the
// rule `npm start` uses, scripts/builds.mjs): a minute of Vite saved when they are fresh.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { BUILDS, dateOutputs, staleness } from "../../../scripts/builds.mjs";

const repository = fileURLToPath(new URL("../../../", import.meta.url));
const run = (command, args) => execFileSync(command, args, { cwd: repository, stdio: "inherit" });

run(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "packages/elements/tsconfig.build.json"]);
const bundles = BUILDS.find((build) => build.outputs.includes("packages/elements/dist/latchkey.iife.js"));
if (staleness(repository, bundles)) {
  const startedAt = Date.now();
  const [command, ...args] = bundles.command;
  run(command, args);
  dateOutputs(repository, bundles, startedAt);
}
