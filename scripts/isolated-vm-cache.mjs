#!/usr/bin/env node
// Keeps the isolated-vm addon that `npm ci` / `npm install` just compiled where its installer looks first the next
// time (issue 35, install time). Run by the root's postinstall, after the dependencies' own install scripts.
//
// isolated-vm (the email renderer's sandbox) is a native addon. Its install script asks prebuild-install for a
// prebuilt binary (looked for in npm's cache, ~/.npm/_prebuilds/, then downloaded from GitHub), and compiles it
// with node-gyp when there is none: about 2 minutes of CPU, most of an install on a 2-core machine. Where GitHub
// cannot be reached (or has no binary for this Node), every fresh clone compiled it again. This script packs the
// binary that was built here into npm's cache, under the name prebuild-install gives the download for this
// platform, architecture, libc and Node ABI, so the next install on this machine (another clone, the packaged
// server's install test) unpacks it in a fraction of a second instead. prebuild-install loads the unpacked binary
// before it accepts it (and compiles otherwise), and the first install on a machine compiles as before.
//
// Never fails the install: without the cached binary the next install only compiles again.
import { spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";

const BINARY = "out/isolated_vm.node";

try {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve("isolated-vm/package.json");
  const packageDir = dirname(packageJson);
  const pkg = require(packageJson);
  // prebuild-install and tar-fs are isolated-vm's own dependencies: resolved from it, as its install script does.
  const fromPackage = createRequire(packageJson);
  const prebuildDir = dirname(fromPackage.resolve("prebuild-install/package.json"));
  const fromPrebuild = createRequire(join(prebuildDir, "package.json"));
  const util = fromPrebuild("./util.js");
  const rc = fromPrebuild("./rc.js")(pkg);
  const cached = util.cachedPrebuild(util.getDownloadUrl({ ...rc, pkg }));
  if (!existsSync(cached) && existsSync(join(packageDir, BINARY)) && loads(packageDir)) {
    mkdirSync(dirname(cached), { recursive: true });
    const temporary = `${cached}.${process.pid}.tmp`;
    const tar = fromPrebuild("tar-fs");
    try {
      await pipeline(tar.pack(packageDir, { entries: [BINARY] }), createGzip(), createWriteStream(temporary));
      renameSync(temporary, cached);
      console.log(`Latchkey: kept the isolated-vm addon built here for the next install on this machine (${cached}).`);
    } finally {
      rmSync(temporary, { force: true });
    }
  }
} catch (error) {
  console.log(`Latchkey: did not keep the isolated-vm addon for the next install (${error instanceof Error ? error.message : error}).`);
}

/** Whether the binary makes an isolate and runs code in it (with the flag the email sandbox process runs with). */
function loads(packageDir) {
  const check = `const ivm = require(${JSON.stringify(packageDir)}); const isolate = new ivm.Isolate({ memoryLimit: 16 });
    if (isolate.compileScriptSync("6 * 7").runSync(isolate.createContextSync()) !== 42) process.exit(1);`;
  return spawnSync(process.execPath, ["--no-node-snapshot", "-e", check], { stdio: "ignore", timeout: 60_000 }).status === 0;
}
