import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const pkg = fileURLToPath(new URL("..", import.meta.url));

it("keeps custom-elements.json (read by Storybook and editors) in step with the elements' JSDoc", () => {
  // The analyzer resolves --outdir against the working directory, absolute or not.
  const out = mkdtempSync(join(tmpdir(), "latchkey-cem-"));
  try {
    execFileSync("npx", ["custom-elements-manifest", "analyze", "--config", "custom-elements-manifest.config.mjs", "--outdir", relative(pkg, out)], { cwd: pkg, stdio: "pipe" });
    const fresh = JSON.parse(readFileSync(join(out, "custom-elements.json"), "utf8"));
    const committed = JSON.parse(readFileSync(join(pkg, "custom-elements.json"), "utf8"));
    expect(committed, "run `npm run analyze --workspace @latchkey/elements`").toEqual(fresh);
    const signIn = fresh.modules.flatMap((m: { declarations?: Array<{ tagName?: string }> }) => m.declarations ?? []).find((d: { tagName?: string }) => d.tagName === "auth-sign-in");
    expect(signIn.events.map((e: { name: string }) => e.name)).toEqual(["auth-signed-in"]);
    expect(signIn.attributes.map((a: { name: string }) => a.name)).toEqual(["no-redirect", "theme"]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 60_000);
