// `npm run size`: builds the drop-in bundles and prints their sizes (raw, gzip -9, brotli), with the
// budget of issue 6, raised by issue 15 for OAuth sign-in (buttons, callback, linking): the script-tag bundle with
// <auth-sign-in> and everything it needs ≤ 22 KB gzip. Provider marks are not in it: the server serves them.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

export const SIGN_IN_BUDGET_BYTES = 22 * 1024;
const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const bundles = ["latchkey-sign-in.iife.js", "latchkey.iife.js", "latchkey.js"];

export function measure() {
  return bundles.map((name) => {
    const code = readFileSync(dist + name);
    return {
      name,
      raw: code.length,
      gzip: gzipSync(code, { level: 9 }).length,
      brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes("--no-build")) execFileSync("npm", ["run", "--silent", "build:elements"], { stdio: "inherit", cwd: fileURLToPath(new URL("../../..", import.meta.url)) });
  const kb = (n) => `${(n / 1024).toFixed(2)} KB`.padStart(10);
  console.log(`${"bundle".padEnd(28)}${"raw".padStart(10)}${"gzip".padStart(10)}${"brotli".padStart(10)}`);
  const sizes = measure();
  for (const s of sizes) console.log(`${s.name.padEnd(28)}${kb(s.raw)}${kb(s.gzip)}${kb(s.brotli)}`);
  const signIn = sizes[0];
  const ok = signIn.gzip <= SIGN_IN_BUDGET_BYTES;
  console.log(`\nbudget: <auth-sign-in> bundle ${kb(signIn.gzip).trim()} gzip of ${kb(SIGN_IN_BUDGET_BYTES).trim()} — ${ok ? "within" : "OVER"} (peers: Hanko 46.5 KB, Clerk ~400 KB, Stack ~330 KB)`);
  if (!ok) process.exitCode = 1;
}
