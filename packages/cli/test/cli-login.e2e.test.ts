import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createUserWithPassword, demoProject, newEmail, openDemo, server, useDemoForFile } from "../../../demo/test/support/demo-e2e.js";

/**
 * The real CLI process (`latchkey login`) against the real server, confirmed by a person in Chromium on the
 * demo's cli-auth-confirm page: the token reaches the CLI once, lands in a 0600 file, and `whoami` reads it.
 */
useDemoForFile();

const bin = fileURLToPath(new URL("../bin/latchkey.mjs", import.meta.url));
const configDirs: string[] = [];
afterEach(() => {
  for (const dir of configDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Cli {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exit: Promise<number>;
}

function runCli(args: string[], configDir: string): Cli {
  const child = spawn(process.execPath, ["--conditions=source", bin, ...args], { env: { ...process.env, XDG_CONFIG_HOME: configDir } });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exit = new Promise<number>((resolve) => child.on("close", (code, signal) => resolve(code ?? (signal ? 128 : 1))));
  return { child, output: () => output, exit };
}

async function confirmUrlOf(cli: Cli): Promise<URL> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const match = /(https?:\/\/\S+cli-auth-confirm\?login_code=\S+)/.exec(cli.output());
    if (match) return new URL(match[1]!);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the CLI printed no confirmation URL:\n${cli.output()}`);
}

describe("latchkey login", () => {
  it("signs the CLI in through the browser confirmation, stores the token 0600, and whoami shows the user", async () => {
    const project = await demoProject();
    const email = newEmail("cli");
    await createUserWithPassword(project, email, "correct horse battery");
    const configDir = mkdtempSync(join(tmpdir(), "latchkey-cli-"));
    configDirs.push(configDir);
    const target = ["--api", server.url, "--project", project.projectId, "--key", project.publishableClientKey];
    const cli = runCli(["login", "--app", `${server.url}/demo`, "--no-browser", ...target], configDir);

    const url = await confirmUrlOf(cli);
    expect(url.pathname).toBe("/demo/handler/cli-auth-confirm");
    const page = await openDemo(project, url.pathname + url.search);
    // Signed out: sign in first, then come back to confirm.
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((u) => u.pathname === "/demo/handler/cli-auth-confirm");
    await page.getByText(`A command-line tool asks to act as ${email}`).waitFor();
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByText("The command-line tool is signed in.").waitFor();

    expect(await cli.exit).toBe(0);
    expect(cli.output()).toContain(`Signed in as <${email}>`);
    const file = join(configDir, "latchkey", "credentials.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const whoami = runCli(["whoami"], configDir);
    expect(await whoami.exit).toBe(0);
    expect(whoami.output()).toContain(`<${email}>`);
  });

  it("stops cleanly on Ctrl-C, saving nothing", async () => {
    const project = await demoProject();
    const configDir = mkdtempSync(join(tmpdir(), "latchkey-cli-"));
    configDirs.push(configDir);
    const cli = runCli(["login", "--app", `${server.url}/demo`, "--no-browser", "--api", server.url, "--project", project.projectId, "--key", project.publishableClientKey], configDir);
    await confirmUrlOf(cli);
    cli.child.kill("SIGINT");
    expect(await cli.exit).toBe(130);
    expect(cli.output()).toContain("Cancelled.");
    expect(() => statSync(join(configDir, "latchkey", "credentials.json"))).toThrow();
  });
});
