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
    expect(signIn.attributes.map((a: { name: string }) => a.name)).toEqual(["no-redirect", "autofocus", "theme"]);
    // Reactive state (`state: true`, in the element or a shared superclass) is no attribute or property:
    // Storybook would offer it as a control.
    const element = (tag: string) => fresh.modules.flatMap((m: { declarations?: Array<{ tagName?: string }> }) => m.declarations ?? []).find((d: { tagName?: string }) => d.tagName === tag);
    const names = (tag: string) => [...element(tag).attributes, ...element(tag).members].map((entry: { name: string }) => entry.name);
    expect(names("auth-team-settings")).toEqual(expect.arrayContaining(["team-id", "teamId"]));
    for (const state of ["loaded", "busy", "error", "notice", "failure"]) expect(names("auth-team-settings")).not.toContain(state);
    for (const state of ["working", "items", "status"]) expect(names("auth-session-settings")).not.toContain(state);
    // The theme tokens, documented once on the base class, are every element's.
    expect(element("auth-session-settings").cssProperties.map((p: { name: string }) => p.name)).toContain("--auth-color-primary");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 60_000);
