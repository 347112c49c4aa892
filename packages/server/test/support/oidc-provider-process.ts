import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { bundledEntry } from "./server-process.js";

export interface OidcProviderProcess {
  /** The issuer URL (`http://127.0.0.1:<port>`), for LATCHKEY_OAUTH_DEV_ISSUER. */
  issuer: string;
  close(): Promise<void>;
}

const serverPackage = fileURLToPath(new URL("../../", import.meta.url));
const standalone = fileURLToPath(new URL("../../src/dev-oauth/standalone.ts", import.meta.url));

/**
 * Starts Latchkey's development OpenID provider (src/dev-oauth/) as a process of its own, a real OpenID
 * provider for the suites to sign in at, and waits until it says it listens.
 */
export async function startOidcProviderProcess(options: { clientSecret?: string; timeoutMs?: number } = {}): Promise<OidcProviderProcess> {
  // The run's bundle of it when there is one (server-bundle.global.ts), else its sources through tsx.
  const bundled = bundledEntry("standalone");
  const child = spawn(process.execPath, [...(bundled ? [bundled] : ["--conditions=source", "--import", "tsx", standalone]), "--port", "0", "--exit-with-stdin"], {
    cwd: serverPackage,
    env: { ...process.env, LATCHKEY_OAUTH_DEV_CLIENT_SECRET: options.clientSecret ?? "MOCK-SERVER-SECRET" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));

  const issuer = await new Promise<string>((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`The OpenID provider process ${why}.\nIts stderr:\n${stderr}`));
    };
    const timer = setTimeout(() => fail(`did not say it listens within ${timeoutMs} ms`), timeoutMs);
    createInterface({ input: child.stdout }).on("line", (line) => {
      const match = /^listening (\S+)$/.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1]!);
    });
    child.once("exit", (code, signal) => fail(`exited before listening (code ${code}, signal ${signal})`));
    child.once("error", (error) => fail(`could not start: ${error.message}`));
  });

  return {
    issuer,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
