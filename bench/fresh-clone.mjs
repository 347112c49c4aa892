// A fresh clone of a checkout's committed HEAD (or `ref`) in a temporary directory, with node_modules hard-linked
// from the checkout instead of installed (`npm ci` is timed on its own: bench/install.mjs), and the PGlite template
// that `npm ci`'s postinstall would have made. Used by cold-start.mjs and builds.mjs.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Where the server keeps its PGlite templates (packages/server/src/db/pglite-template.ts). */
export const templatesOf = (checkout) => join(checkout, "node_modules/.cache/latchkey");

/** Clones `root` (a checkout's path) into a new temporary directory and returns that directory's path. */
export function freshClone(root, { ref, prefix = "latchkey-clone-" } = {}) {
  const clone = mkdtempSync(join(tmpdir(), prefix));
  execFileSync("git", ["clone", "--quiet", root, clone], { stdio: "ignore" });
  if (ref) execFileSync("git", ["checkout", "--quiet", ref], { cwd: clone, stdio: "ignore" });
  // The root's node_modules and the workspaces' own (a workspace may need another version of a dependency).
  for (const modules of ["node_modules", ...["packages", "demo"].flatMap((dir) => readdirSync(join(root, dir)).map((name) => join(dir, name, "node_modules")))]) {
    if (existsSync(join(root, modules)) && existsSync(join(clone, modules, ".."))) linkTree(join(root, modules), join(clone, modules));
  }
  // What `npm ci`'s postinstall leaves: the PGlite template (copied, not linked: the clone's own files).
  if (existsSync(templatesOf(root))) cpSync(templatesOf(root), templatesOf(clone), { recursive: true });
  return clone;
}

/**
 * node_modules as hard links (directories made, files linked, symlinks copied as they are): no install, and no
 * second copy of 1 GB. Its caches (.cache, .vite…) are left out: a build writing there would change this
 * checkout's files through the links.
 */
function linkTree(from, to) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (from.endsWith("node_modules") && entry.name.startsWith(".") && entry.name !== ".bin") continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (entry.isDirectory()) linkTree(source, target);
    else if (lstatSync(source).isFile()) linkSync(source, target);
  }
}
