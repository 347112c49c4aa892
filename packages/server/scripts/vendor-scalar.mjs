#!/usr/bin/env node
// Puts Scalar's API reference browser bundle (what /api/v1/docs serves) in packages/server/vendor/scalar/:
//
//   node packages/server/scripts/vendor-scalar.mjs 1.72.1
//
// The file is kept in the repository instead of depending on @scalar/api-reference (issue 35, install time): the
// package brings ~240 packages and ~265 MB (Vue, its component libraries, an AI SDK…) that this one
// self-contained, minified file does not need, and it requires Node ≥ 22 (an EBADENGINE warning on every install
// on our Node 20). The tarball comes from the npm registry through npm itself (`npm pack`, which checks its
// integrity); only dist/browser/standalone.js and the package's license field are kept.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const version = process.argv[2];
if (!/^\d+\.\d+\.\d+$/.test(version ?? "")) {
  console.error("usage: node packages/server/scripts/vendor-scalar.mjs <version of @scalar/api-reference, e.g. 1.72.1>");
  process.exit(2);
}
const vendorDir = new URL("../vendor/scalar/", import.meta.url);
const work = mkdtempSync(join(tmpdir(), "latchkey-scalar-"));
try {
  const [{ filename }] = JSON.parse(execFileSync("npm", ["pack", `@scalar/api-reference@${version}`, "--json", "--pack-destination", work], { encoding: "utf8" }));
  execFileSync("tar", ["-xzf", join(work, filename), "-C", work, "package/package.json", "package/dist/browser/standalone.js"]);
  const pkg = JSON.parse(readFileSync(join(work, "package/package.json"), "utf8"));
  writeFileSync(new URL("standalone.js", vendorDir), readFileSync(join(work, "package/dist/browser/standalone.js")));
  writeFileSync(new URL("VERSION", vendorDir), `${pkg.name}@${pkg.version} dist/browser/standalone.js (license: ${pkg.license})\n`);
  console.log(`packages/server/vendor/scalar/standalone.js: ${pkg.name}@${pkg.version}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
