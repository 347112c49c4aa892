import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { createTestProject, startTestServer, type TestProject, type TestServer } from "../../../packages/server/test/support/test-server.js";
import { ensureBuilt } from "./ensure-built.js";
import { sharedChromium } from "./shared-chromium.js";

/**
 * The Next.js App Router fixture (demo/next) as a customer's app: built with `next build` against the BUILT
 * packages (`npm run build:packages`: dist/*.js and .d.ts, what `exports` give an app outside the repository),
 * and served by `next start`, or by `next dev` (which keeps its files apart, in dist/dev).
 */

const repository = fileURLToPath(new URL("../../../", import.meta.url));
// No telemetry and no update checks: the machines reach nothing but the package registry.
const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: "1" };
const NEXT_BIN = "node_modules/next/dist/bin/next";

/** The packages `npm run build:packages` builds (into their dist/, which the app reads), as its script lists them. */
const BUILT_PACKAGES = [...(JSON.parse(readFileSync(`${repository}package.json`, "utf8")) as { scripts: Record<string, string> }).scripts["build:packages"]!.matchAll(/packages\/([\w-]+)\/tsconfig\.build\.json/g)].map((match) => match[1]!);

/**
 * The packages' and then the app's build, as one: the app reads the packages' dist/. Stale when a built
 * package's source or package.json or the app changed (next-env.d.ts, which `next build` and `next dev` each
 * rewrite, does not count), so the test files that use the app share one build per run, and a run after no
 * change builds nothing.
 */
const NEXT_BUILD = {
  name: "the Next.js fixture (demo/next/dist)",
  sources: [
    ...BUILT_PACKAGES.flatMap((name) => [`packages/${name}/src`, `packages/${name}/package.json`]),
    ...readdirSync(`${repository}demo/next`)
      .filter((name) => name !== "dist" && name !== "next-env.d.ts")
      .map((name) => `demo/next/${name}`),
    "package-lock.json",
  ],
  outputs: ["demo/next/dist/BUILD_ID"],
  command: ["sh", "-c", `npm run --silent build:packages && NEXT_TELEMETRY_DISABLED=1 ${JSON.stringify(process.execPath)} ${NEXT_BIN} build demo/next`],
};

/** Builds the app unless an up-to-date build is there (once even when test files run in parallel). */
export function ensureNextBuilt(): Promise<void> {
  return ensureBuilt(NEXT_BUILD.outputs, [NEXT_BUILD]);
}

export interface RunningNext {
  url: string;
  /** Everything the server printed so far (compile errors, server-side render errors). */
  output(): string;
  close(): Promise<void>;
}

/**
 * Serves the app with `next start` (the production build: run ensureNextBuilt first) or `next dev`, with `env`
 * (the Latchkey server and project) as its environment, and resolves once it answers `warmUp` (each path
 * given is requested once: `next dev` compiles a route on its first request, which can take a minute here).
 */
export async function startNext(mode: "start" | "dev", env: Record<string, string>, warmUp: string[] = ["/"]): Promise<RunningNext> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Without vitest's NODE_ENV=test: Next sets production or development itself, as for a customer.
  const { NODE_ENV: _testMode, ...inherited } = process.env;
  const child = spawn(process.execPath, [NEXT_BIN, mode, "demo/next", "--port", String(port), "--hostname", "127.0.0.1"], {
    cwd: repository,
    env: { ...inherited, ...NEXT_ENV, ...env },
    // A process group of its own, so that stopping it also stops any worker Next starts.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const running = { url, output: () => output, close: () => stop(child) };
  try {
    await untilAnswering(`${url}/`, child, () => output);
    for (const path of warmUp) await fetch(`${url}${path}`).then((response) => response.arrayBuffer());
  } catch (error) {
    await stop(child);
    throw error;
  }
  return running;
}

async function stop(child: ChildProcess): Promise<void> {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid, "SIGTERM");
  await exited;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Waits (≤ 60 s: `next dev` starts slower than `next start`) until it answers, failing early if it exits. */
async function untilAnswering(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next exited (${child.exitCode}):\n${output()}`);
    const answered = await fetch(url, { method: "HEAD" }).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`next did not answer within 60 s:\n${output()}`);
}

/** What every Next.js e2e file starts from: the built fixture, a Latchkey server with a new project, one Chromium. */
export interface NextFixture {
  latchkey: TestServer;
  browser: Browser;
  project: TestProject;
  /** The app's environment (`.env.local`), naming the server at `baseUrl`. */
  appEnv: Record<string, string>;
}

/**
 * Starts the server (`startServer`, the default test server unless given) and Chromium while the fixture builds,
 * then makes the app's project (new projects trust localhost pages, 127.0.0.1 included, where Next listens).
 */
export async function startNextFixture(
  projectName: string,
  { startServer = () => startTestServer(), baseUrl = (server: TestServer) => server.url }: { startServer?: () => Promise<TestServer>; baseUrl?: (server: TestServer) => string } = {},
): Promise<NextFixture> {
  const started = Promise.all([startServer(), sharedChromium()]);
  let latchkey: TestServer;
  let browser: Browser;
  try {
    await ensureNextBuilt();
  } finally {
    [latchkey, browser] = await started;
  }
  const project = await createTestProject(latchkey, projectName);
  const appEnv = { LATCHKEY_BASE_URL: baseUrl(latchkey), LATCHKEY_PROJECT_ID: project.projectId, LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey };
  return { latchkey, browser, project, appEnv };
}
