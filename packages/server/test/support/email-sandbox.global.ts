import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const sandboxProcess = fileURLToPath(new URL("../../src/email-rendering/sandbox-process.mjs", import.meta.url));

/**
 * vitest global setup: one email sandbox process for the run, listening on a Unix socket, which every server the
 * test workers start in-process renders in (LATCHKEY_TEST_EMAIL_SANDBOX_SOCKET, sandbox-client.ts) instead of
 * forking its own. The sandbox is the same code as a server's own; what a fork per test file paid again and again
 * is its start (Node without its start-up snapshot), the libraries loaded into an isolate and the first render's
 * cold code: ~1 s of CPU, ~200 s a run (issue 35). Renders stay in isolates per project, as in any server's
 * sandbox. Server processes that tests start keep forking their own, as production does; so do the tests of the
 * sandbox itself (email-rendering*.test.ts), which stop it, starve it and crash it. Without it, each server forks
 * its own.
 */
/** Forks a sandbox process listening on `socket` and waits until it listens. */
export async function listeningSandbox(socket: string, env: NodeJS.ProcessEnv = process.env, stdio: "inherit" | "ignore" = "inherit"): Promise<ChildProcess> {
  const child = fork(sandboxProcess, ["--listen", socket], {
    execArgv: ["--no-node-snapshot"],
    env,
    stdio: ["ignore", stdio, stdio, "ipc"],
    serialization: "advanced",
  });
  try {
    await new Promise<void>((resolve, reject) => {
      child.once("message", () => resolve());
      child.once("exit", (code) => reject(new Error(`it exited (${code}) before listening`)));
      child.once("error", reject);
    });
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return child;
}

export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-test-email-sandbox-"));
  const socket = join(dir, "sandbox.sock");
  let child: ChildProcess;
  try {
    // More warm isolates than one server keeps: every test file's projects render here, and the shared built-in
    // templates' isolate should not be evicted by them.
    child = await listeningSandbox(socket, { ...process.env, LATCHKEY_EMAIL_SANDBOX_WARM: "24" });
  } catch (error) {
    console.warn(`Each test server forks its own email sandbox: ${String(error)}`);
    rmSync(dir, { recursive: true, force: true });
    return () => {};
  }
  // The run's workers start after every global setup has finished, and read it then.
  process.env.LATCHKEY_TEST_EMAIL_SANDBOX_SOCKET = socket;
  return () => {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
}
