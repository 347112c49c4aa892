// `npm run size`: builds the drop-in bundles and prints their sizes (raw, gzip -9, brotli), with the budgets of
// issue 16 §6 (elements on Lit's LitElement, passkeys by @simplewebauthn/browser, JWTs decoded by jose): the
// script-tag bundle with <auth-sign-in> and everything it needs ≤ 23 KB gzip (22 KB until issue 30's device token),
// the one with every element ≤ 42 KB.
// Provider marks are not in them (the server serves them), nor are what the bundles load next to themselves
// when a page uses it, whose sizes are printed too: the account and team management elements
// (latchkey-account.js, when one is placed on the page), the passkey library (latchkey-webauthn.js, when a
// passkey ceremony starts) and the QR code of two-factor setup (latchkey-qr.js).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

export const SIGN_IN_BUDGET_BYTES = 23 * 1024;
export const ALL_ELEMENTS_BUDGET_BYTES = 42 * 1024;
const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const bundles = ["latchkey-sign-in.iife.js", "latchkey.iife.js", "latchkey.js", "latchkey-account.js", "latchkey-webauthn.js", "latchkey-qr.js"];

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
  const budgets = [
    ["<auth-sign-in> bundle", sizes[0], SIGN_IN_BUDGET_BYTES],
    ["all elements bundle", sizes[1], ALL_ELEMENTS_BUDGET_BYTES],
  ];
  console.log("");
  for (const [label, size, budget] of budgets) {
    const ok = size.gzip <= budget;
    console.log(`budget: ${label} ${kb(size.gzip).trim()} gzip of ${kb(budget).trim()} — ${ok ? "within" : "OVER"}`);
    if (!ok) process.exitCode = 1;
  }
  console.log("(peers: Hanko 46.5 KB, Clerk ~400 KB, Stack ~330 KB)");
}
