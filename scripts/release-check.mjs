// `npm run release:check`: everything a release needs, without publishing anything (issue 34).
//  1. One version: every workspace package has the root's release version, and depends on the others at it.
//  2. The packed packages as apps install them: demo/test/client-packages.e2e.test.ts with the Next.js App Router
//     app too (LATCHKEY_RELEASE_CHECK=1; `npm test` leaves that minute-long build to the in-repository app), and
//     the server's tarball (packages/server/test/package-install.e2e.test.ts), each packing its packages once.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repository = fileURLToPath(new URL("..", import.meta.url));
const read = (path) => JSON.parse(readFileSync(join(repository, path), "utf8"));

const manifests = readdirSync(join(repository, "packages"))
  .filter((name) => existsSync(join(repository, "packages", name, "package.json")))
  .map((name) => read(`packages/${name}/package.json`));
const version = read("packages/protocol/package.json").version;
const problems = [];
for (const manifest of manifests) {
  if (manifest.version !== version) problems.push(`${manifest.name} is ${manifest.version}, not ${version}`);
  for (const field of ["dependencies", "devDependencies", "peerDependencies"]) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (name.startsWith("@latchkey/") && range !== version) problems.push(`${manifest.name} ${field} ${name}@${range}, not ${version}`);
    }
  }
}
if (!readFileSync(join(repository, "CHANGELOG.md"), "utf8").includes(`## ${version}`)) problems.push(`CHANGELOG.md has no "## ${version}" entry`);
if (problems.length) {
  console.error(`release:check: the packages do not share one version:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`release:check: ${manifests.length} packages at ${version}`);

const tests = ["demo/test/client-packages.e2e.test.ts", "packages/server/test/package-install.e2e.test.ts"].filter((file) => existsSync(join(repository, file)));
const result = spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--project", "e2e", ...tests], {
  cwd: repository,
  stdio: "inherit",
  env: { ...process.env, LATCHKEY_RELEASE_CHECK: "1" },
});
process.exit(result.status ?? 1);
