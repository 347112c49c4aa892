import { spawn } from "node:child_process";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";

/**
 * The built Storybook (`storybook-static/`), built once when missing or older than any of its sources, the
 * way CI's `npm run build-storybook` builds it.
 */

const SOURCES = [
  ".storybook",
  "stories",
  "packages/elements/src",
  "packages/elements/locales",
  "packages/core/src",
  "packages/protocol/src",
  "packages/elements/custom-elements.json",
  // The "Host page CSS" stories show the hostile stylesheet of the elements' host-css test.
  "packages/elements/test/support/hostile-page.css",
];
/** Not part of the build: editing these tests must not force a rebuild. */
const NOT_SOURCES = new Set(["stories/test"]);

export interface StoryEntry {
  id: string;
  title: string;
  name: string;
}

/** Storybook's index.json: every story and Docs page. */
export interface StoryIndex {
  entries: Record<string, StoryEntry & { type: "story" | "docs"; tags: string[]; importPath: string }>;
}

export interface BuiltStorybook {
  dir: string;
  index: StoryIndex;
  stories: StoryEntry[];
  rebuilt: boolean;
}

export async function builtStorybook(repoRoot: string): Promise<BuiltStorybook> {
  const dir = join(repoRoot, "storybook-static");
  const index = join(dir, "index.json");
  const builtAt = await mtime(index);
  const ignored = new Set([...NOT_SOURCES].map((path) => join(repoRoot, path)));
  const newestSource = Math.max(...(await Promise.all(SOURCES.map((source) => newestMtime(join(repoRoot, source), ignored)))));
  const rebuilt = builtAt === undefined || builtAt < newestSource;
  if (rebuilt) await run(join(repoRoot, "node_modules/.bin/storybook"), ["build", "-o", "storybook-static", "--quiet"], repoRoot);
  const storyIndex = JSON.parse(await readFile(index, "utf8")) as StoryIndex;
  const stories = Object.values(storyIndex.entries)
    .filter((entry) => entry.type === "story")
    .map(({ id, title, name }) => ({ id, title, name }));
  return { dir, index: storyIndex, stories, rebuilt };
}

async function mtime(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The newest modification time of a file, or of any file under a directory (0 when absent). */
async function newestMtime(path: string, ignored: Set<string>): Promise<number> {
  if (ignored.has(path)) return 0;
  let info;
  try {
    info = await stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  const children = await readdir(path);
  return Math.max(info.mtimeMs, ...(await Promise.all(children.map((child) => newestMtime(join(path, child), ignored)))));
}

function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, STORYBOOK_DISABLE_TELEMETRY: "1" } });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`storybook build failed (exit ${code}):\n${output.slice(-4000)}`))));
  });
}
