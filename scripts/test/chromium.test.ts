import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { chromiumPath, ensureChromium, HOW_TO_GET_ONE, NoChromiumError } from "../chromium.mjs";

// Issue 17: `npm test` on a machine without Chromium finds one, installs Debian's as root, or stops with one line.

const SCRIPT = fileURLToPath(new URL("../chromium.mjs", import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-chromium-test-"));
  dirs.push(dir);
  return dir;
}

function executable(path: string, body = "#!/bin/sh\nexit 0\n"): string {
  writeFileSync(path, body);
  chmodSync(path, 0o755);
  return path;
}

function runScript(env: Record<string, string>) {
  const run = spawnSync(process.execPath, [SCRIPT], { env, encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("the npm test step (node scripts/chromium.mjs)", () => {
  it("stops with one line and a non-zero exit when CHROME_PATH names no browser", () => {
    const missing = join(tempDir(), "chrome");
    const { status, stdout, stderr } = runScript({ PATH: tempDir(), CHROME_PATH: missing });
    expect(status).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(`CHROME_PATH=${missing} is not an executable file: point it at a Chromium or Chrome executable, or unset it to look in the usual places.\n`);
  });

  it("names the browser it found", () => {
    const chrome = executable(join(tempDir(), "my-chrome"));
    expect(runScript({ PATH: tempDir(), CHROME_PATH: chrome })).toEqual({ status: 0, stdout: `Browser tests use ${chrome}\n`, stderr: "" });
  });
});

describe("finding the browser", () => {
  it("says in one line how to get one when neither the known places nor PATH have one, and installs nothing unless root", () => {
    const bin = tempDir();
    executable(join(bin, "apt-get"), `#!/bin/sh\necho "$@" >> ${join(bin, "apt.log")}\n`);
    let error: unknown;
    try {
      ensureChromium({ env: { PATH: bin }, knownLocations: [join(bin, "chromium-nowhere")], isRoot: false, log: () => {} });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(NoChromiumError);
    expect((error as Error).message).toBe(HOW_TO_GET_ONE);
    expect(HOW_TO_GET_ONE).not.toContain("\n");
    expect(() => readFileSync(join(bin, "apt.log"))).toThrow();
  });

  it("prefers CHROME_PATH, then the known places, then PATH", () => {
    const bin = tempDir();
    const onPath = executable(join(bin, "chromium"));
    const known = executable(join(tempDir(), "chromium"));
    const named = executable(join(tempDir(), "chrome"));
    expect(chromiumPath({ env: { PATH: bin }, knownLocations: [] })).toBe(onPath);
    expect(chromiumPath({ env: { PATH: bin }, knownLocations: [known] })).toBe(known);
    expect(chromiumPath({ env: { PATH: bin, CHROME_PATH: named }, knownLocations: [known] })).toBe(named);
    // A directory of that name is not a browser.
    expect(() => chromiumPath({ env: { PATH: bin, CHROME_PATH: bin }, knownLocations: [known] })).toThrow(NoChromiumError);
  });

  it("as root with apt-get, installs Debian's chromium, says so, and uses it", () => {
    const bin = tempDir();
    const installed = join(tempDir(), "chromium");
    // An apt-get that records its arguments and, asked to install chromium, puts an executable where Debian would.
    executable(
      join(bin, "apt-get"),
      `#!/bin/sh\necho "$DEBIAN_FRONTEND $@" >> ${join(bin, "apt.log")}\n[ "$1" = install ] && printf '#!/bin/sh\\n' > ${installed} && /bin/chmod +x ${installed}\nexit 0\n`,
    );
    const lines: string[] = [];
    expect(ensureChromium({ env: { PATH: bin }, knownLocations: [installed], isRoot: true, log: (line) => lines.push(line) })).toBe(installed);
    expect(readFileSync(join(bin, "apt.log"), "utf8")).toBe("noninteractive update -qq\nnoninteractive install -y -qq chromium\n");
    expect(lines).toEqual(["No Chromium found for the browser tests: installing Debian's chromium with apt-get (a minute or two, once)…"]);
  });

  it("stops with one line when the install fails", () => {
    const bin = tempDir();
    executable(join(bin, "apt-get"), `#!/bin/sh\necho "E: Unable to locate package chromium" >&2\nexit 100\n`);
    expect(() => ensureChromium({ env: { PATH: bin }, knownLocations: [join(bin, "none")], isRoot: true, log: () => {} })).toThrow(
      new NoChromiumError(`Installing chromium with apt-get failed (apt-get update: E: Unable to locate package chromium). ${HOW_TO_GET_ONE}`),
    );
  });
});
