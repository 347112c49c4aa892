import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

// Issue 34, production guide: the example Caddy, nginx and systemd files in deploy/ are checked by deploy/check.sh
// with the tools that read them. A tool not installed here is reported "skipped" (CI does not install Caddy and
// nginx: ~23 s of apt), never passed silently; the lines say which.
const deploy = fileURLToPath(new URL("../../deploy/", import.meta.url));
const copies: string[] = [];
afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

// nginx's check also needs openssl (a self-signed certificate for the example's paths).
const have = (tool: string) => spawnSync("sh", ["-c", tool === "nginx" ? "command -v nginx && command -v openssl" : `command -v ${tool}`]).status === 0;
// Each file, the tool that checks it, the command the script names, and its line when the tool is missing.
const FILES = [
  { file: "Caddyfile", tool: "caddy", command: "caddy validate", missing: "caddy is not installed" },
  { file: "nginx/latchkey.conf", tool: "nginx", command: "nginx -t", missing: "nginx (or openssl) is not installed" },
  { file: "latchkey@.service", tool: "systemd-analyze", command: "systemd-analyze verify", missing: "systemd-analyze is not installed" },
] as const;

function check(dir: string): { status: number | null; lines: string[]; output: string } {
  const result = spawnSync("bash", [join(dir, "check.sh")], { encoding: "utf8", timeout: 60_000 });
  const output = result.stdout + result.stderr;
  return { status: result.status, lines: result.stdout.split("\n").filter((line) => /^(ok|skipped|FAILED) /.test(line)), output };
}

/** deploy/ copied to a temporary folder with one file changed. */
function brokenCopy(file: string, change: (text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-deploy-"));
  copies.push(dir);
  cpSync(deploy, dir, { recursive: true });
  writeFileSync(join(dir, file), change(readFileSync(join(dir, file), "utf8")));
  return dir;
}

describe("deploy/check.sh", () => {
  it("accepts the example files with every tool installed here, and says which it could not check", () => {
    const { status, lines, output } = check(deploy);
    expect(status, output).toBe(0);
    expect(lines).toEqual(
      FILES.map(({ file, tool, command, missing }) => (have(tool) ? `ok ${file}: ${command}` : `skipped ${file}: ${missing}`)),
    );
  });

  const MISTAKES: Record<string, (text: string) => string> = {
    "Caddyfile": (text) => text.replace("reverse_proxy", "reverse_proxi"),
    "nginx/latchkey.conf": (text) => text.replace("proxy_pass http://latchkey;", "proxy_pass http://latchkey"),
    // systemd-analyze exits 0 on this (it only prints it): the script counts any output as a failure.
    "latchkey@.service": (text) => text.replace("KillMode=mixed", "KillMode=gently"),
  };
  it.each(FILES)("fails on a mistake in $file", ({ file, tool, command }) => {
    if (!have(tool)) return; // reported as skipped by the first test
    const { status, lines, output } = check(brokenCopy(file, MISTAKES[file]!));
    expect(status, output).toBe(1);
    expect(lines).toContain(`FAILED ${file}: ${command}`);
  });

  it("runs the packaged server's bin and stops it with SIGTERM (the server's drain)", () => {
    const unit = readFileSync(join(deploy, "latchkey@.service"), "utf8");
    expect(unit).toMatch(/^ExecStart=\/opt\/latchkey\/node_modules\/\.bin\/latchkey-server start$/m);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    execFileSync("bash", ["-n", join(deploy, "check.sh")]);
  });
});
