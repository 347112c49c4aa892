import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const gzipBytes = (name: string) => gzipSync(readFileSync(dist + name), { level: 9 }).length;

describe("the drop-in bundles", () => {
  beforeAll(() => {
    execFileSync("npm", ["run", "--silent", "build:elements"], { cwd: root, stdio: "pipe" });
  }, 120_000);

  it("keeps the script-tag bundle with <auth-sign-in> and everything it needs within 20 KB gzip", () => {
    expect(gzipBytes("latchkey-sign-in.iife.js")).toBeLessThanOrEqual(20 * 1024);
  });
});
