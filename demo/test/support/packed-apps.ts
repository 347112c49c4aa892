import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { withBuildLock } from "./ensure-built.js";

/**
 * The client packages as an app outside this repository gets them (issue 34): `npm pack` of each workspace,
 * the tarballs installed together into a fresh app from the npm cache the repository's install filled
 * (`--prefer-offline`), never from workspace links. Used by demo/test/client-packages.e2e.test.ts, which
 * `npm run release:check` also runs (with the Next.js app, whose production build costs a minute).
 */

const repository = fileURLToPath(new URL("../../../", import.meta.url));
export const CLIENT_PACKAGES = ["@latchkey/protocol", "@latchkey/core", "@latchkey/elements", "@latchkey/react", "@latchkey/next", "@latchkey/cli"];

export interface Tarball {
  name: string;
  path: string;
  bytes: number;
  files: number;
  /** Every file in the tarball, relative to the package's root. */
  paths: string[];
}

/** Runs a command to its end; rejects with everything it printed when it fails. */
export function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    // Without vitest's NODE_ENV=test: Vite and Next would build development code.
    const { NODE_ENV: _testMode, ...inherited } = process.env;
    const child = spawn(command, args, { cwd, env: { ...inherited, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(" ")} failed (${code}):\n${output}`))));
  });
}

/** One `npm pack` of every client package (each one's prepack builds its dist/) into `destination`. */
export async function packClientPackages(destination: string): Promise<Tarball[]> {
  mkdirSync(destination, { recursive: true });
  const workspaces = CLIENT_PACKAGES.flatMap((name) => ["--workspace", name]);
  // Packing rebuilds the packages' dist/ (their prepack), which other test files' builds read: under their lock.
  const output = await withBuildLock(() => run("npm", ["pack", "--json", "--pack-destination", destination, ...workspaces], repository));
  // npm prints the prepack scripts' lines too; the JSON report is the last thing on stdout.
  const packed = JSON.parse(output.slice(output.indexOf("[\n"))) as { name: string; filename: string; size: number; entryCount: number; files: { path: string }[] }[];
  return packed.map((entry) => ({ name: entry.name, path: join(destination, entry.filename), bytes: entry.size, files: entry.entryCount, paths: entry.files.map((file) => file.path) }));
}

/**
 * What is wrong with a tarball as an app sees it: an `exports` target (types or JavaScript, wildcards expanded
 * against the files) or a bin that is not in it, a missing README, tests shipped, or a dependency on another
 * Latchkey package at a version other than its own (all packages share one version).
 */
export function tarballProblems(tarball: Tarball): string[] {
  const manifest = JSON.parse(readFileSync(join(repository, "packages", tarball.name.replace("@latchkey/", ""), "package.json"), "utf8")) as {
    version: string;
    exports?: Record<string, string | Record<string, string>>;
    bin?: Record<string, string>;
    dependencies?: Record<string, string>;
  };
  const has = (target: string) => {
    const relative = target.replace(/^\.\//, "");
    if (!relative.includes("*")) return tarball.paths.includes(relative);
    const [before, after] = relative.split("*") as [string, string];
    return tarball.paths.some((path) => path.startsWith(before) && path.endsWith(after));
  };
  const problems: string[] = [];
  for (const [subpath, conditions] of Object.entries(manifest.exports ?? {})) {
    const targets = typeof conditions === "string" ? { default: conditions } : conditions;
    if (typeof conditions !== "string" && (!targets.types || !targets.default)) problems.push(`exports["${subpath}"] lacks types or default`);
    for (const target of Object.values(targets)) if (!has(target)) problems.push(`exports["${subpath}"] → ${target} is not in the tarball`);
  }
  for (const bin of Object.values(manifest.bin ?? {})) if (!has(bin)) problems.push(`bin ${bin} is not in the tarball`);
  if (!tarball.paths.includes("README.md")) problems.push("no README.md");
  const tests = tarball.paths.filter((path) => /(^|\/)test\/|\.test\.[jt]s$/.test(path));
  if (tests.length) problems.push(`ships tests: ${tests.slice(0, 3).join(", ")}`);
  for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
    if (name.startsWith("@latchkey/") && range !== manifest.version) problems.push(`depends on ${name}@${range}, not ${manifest.version}`);
  }
  return problems;
}

/** The repository's version of a package it installed, so the app's install finds it in the npm cache. */
export function repositoryVersion(name: string): string {
  return (JSON.parse(readFileSync(join(repository, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

/** Installs `tarballs` (all together: they depend on each other at one version) into the app at `app`; resolves with the seconds it took. */
export async function installApp(app: string, dependencies: string[], tarballs: Tarball[]): Promise<number> {
  const pinned = Object.fromEntries(dependencies.map((name) => [name, repositoryVersion(name)]));
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "packed-app", private: true, type: "module", dependencies: pinned }, null, 2));
  const startedAt = Date.now();
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...tarballs.map((tarball) => tarball.path)], app);
  return (Date.now() - startedAt) / 1000;
}

const VITE_MAIN = `import { AuthProvider, AuthSignIn, useUser } from "@latchkey/react";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

function Account() {
  const user = useUser(); // undefined while loading, null when signed out
  if (user === undefined) return <p>Loading…</p>;
  return <p role="status">{user ? \`Signed in as \${user.primaryEmail}\` : "Signed out"}</p>;
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <AuthProvider
      projectId={import.meta.env.VITE_LATCHKEY_PROJECT_ID}
      publishableClientKey={import.meta.env.VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY}
      baseUrl={import.meta.env.VITE_LATCHKEY_BASE_URL}
    >
      <Account />
      <AuthSignIn noRedirect />
    </AuthProvider>
  </StrictMode>,
);
`;

// The same app without Latchkey: what the packages add is the difference between the two builds.
const VITE_BASELINE = `import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <p>Signed out</p>
  </StrictMode>,
);
`;

/**
 * A fresh Vite + React + TypeScript app, as `npm create vite` makes one (without its network fetch): esbuild's
 * automatic JSX runtime, strict TypeScript with bundler resolution and no `source` condition.
 */
export function writeViteApp(app: string): void {
  mkdirSync(join(app, "src"), { recursive: true });
  writeFileSync(join(app, "index.html"), `<!doctype html>\n<html lang="en">\n<head><meta charset="UTF-8" /><title>Packed app</title></head>\n<body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body>\n</html>\n`);
  writeFileSync(join(app, "src", "main.tsx"), VITE_MAIN);
  writeFileSync(join(app, "src", "baseline.tsx"), VITE_BASELINE);
  writeFileSync(join(app, "src", "vite-env.d.ts"), `/// <reference types="vite/client" />\n`);
  writeFileSync(
    join(app, "vite.config.ts"),
    `import { defineConfig } from "vite";\n\n// BASELINE=1 builds the app without Latchkey, to measure what the packages add.\nexport default defineConfig({\n  esbuild: { jsx: "automatic" },\n  build: { outDir: process.env.BASELINE ? "dist-baseline" : "dist", rollupOptions: process.env.BASELINE ? { input: "src/baseline.tsx" } : undefined },\n});\n`,
  );
  const compilerOptions = { target: "ES2022", lib: ["ES2022", "DOM", "DOM.Iterable"], module: "ESNext", moduleResolution: "Bundler", jsx: "react-jsx", strict: true, noEmit: true, skipLibCheck: false, types: ["vite/client"] };
  writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src"] }, null, 2));
}

/** Gzipped bytes of every .js file a build wrote under `dist`. */
export function gzippedJavaScript(dist: string): number {
  let total = 0;
  for (const entry of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
    const path = join(dist, entry);
    if (entry.endsWith(".js") && statSync(path).isFile()) total += gzipSync(readFileSync(path), { level: 9 }).length;
  }
  return total;
}

/**
 * The repository's Next.js App Router fixture (demo/next) copied out as an app of its own: its config without the
 * repository's root and output folder, its tsconfig without the repository's base.
 */
export function writeNextApp(app: string): void {
  cpSync(join(repository, "demo", "next"), app, { recursive: true, filter: (source) => !/\/(dist|node_modules)$|next-env\.d\.ts$/.test(source) });
  // TypeScript 7 (what the app installs) has no compiler API: Next checks the types with its `tsc` instead.
  writeFileSync(join(app, "next.config.mjs"), `/** @type {import("next").NextConfig} */\nexport default { turbopack: { root: import.meta.dirname }, experimental: { useTypeScriptCli: true } };\n`);
  const fixture = JSON.parse(readFileSync(join(repository, "demo", "next", "tsconfig.json"), "utf8").replace(/^\s*\/\/.*$/gm, "")) as { compilerOptions: Record<string, unknown>; include: string[] };
  const { customConditions: _none, ...own } = fixture.compilerOptions;
  // create-next-app's settings (Next's own declarations need skipLibCheck; the Vite app checks ours).
  const compilerOptions = { target: "ES2022", lib: ["DOM", "DOM.Iterable", "ESNext"], strict: true, noEmit: true, skipLibCheck: true, isolatedModules: true, esModuleInterop: true, resolveJsonModule: true, ...own };
  writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions, include: fixture.include }, null, 2));
}

/** A process started in its own group (stopped with everything it started), and what it printed. */
export interface Started {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

export function startProcess(command: string, args: string[], cwd: string, env: Record<string, string>): Started {
  const { NODE_ENV: _testMode, ...inherited } = process.env;
  const child = spawn(command, args, { cwd, env: { ...inherited, ...env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  return {
    child,
    output: () => output,
    async stop() {
      if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid, "SIGTERM");
      await exited;
    },
  };
}

/** Waits (≤ 90 s on a loaded machine) until `url` answers, failing early if the process exited. */
export async function untilAnswering(url: string, started: Started): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`the process exited (${started.child.exitCode}):\n${started.output()}`);
    if (await fetch(url).then((response) => response.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within 90 s:\n${started.output()}`);
}

export function removeQuietly(path: string): void {
  rmSync(path, { recursive: true, force: true });
}
