#!/usr/bin/env node
// `node source-bundle.mjs <dir>`: the server's and the protocol's TypeScript sources as one ES module for the test
// files' worker threads (issue 35), made once per run by source-bundle.global.ts.
//
// Through vite-node, each test file's worker transformed and evaluated ~300 source modules one by one: ~0.55 s of a
// server file's ~0.75 s of module loading, paid again by every file (a fresh worker each). Node loads the same code
// as one file in ~0.14 s. The bundle (<dir>/sources.js) exports every module's exports under a prefixed name; each
// source module gets a small facade (<dir>/m/<path>.mjs) re-exporting its own names from it, which the server
// projects' resolver (vite.config.ts) hands to Node in place of the source. So a test file and the server it starts
// share one instance of every module, as before, and bindings stay live. The npm packages the sources use are in the
// bundle too, with facades for their files (below, LEFT_TO_NODE). <dir>/map.json maps each source or package file to
// its facade.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { bundleSources, EXTERNAL } from "../../scripts/bundle.mjs";

const repository = fileURLToPath(new URL("../../../../", import.meta.url));
const SOURCE_DIRS = ["packages/server/src", "packages/protocol/src"];

/**
 * Scripts that do their work when loaded (start the server, run a command), left out of the bundle, which evaluates
 * every module it holds when first imported. A test importing one gets it from its source, as before.
 */
const SCRIPTS = ["main.ts", "cli.ts", "rotate-signing-keys.ts", "rotate-vault-keys.ts", "dev-oauth/standalone.ts"].map((path) => join(repository, "packages/server/src", path));

/**
 * npm packages are bundled too, as in the server's own bundle: Node loading them file by file (hono, zod, kysely,
 * jose…) cost ~0.5 s of a worker's ~0.65 s to load the sources. Left to Node: those the server's bundle leaves to it
 * (EXTERNAL: files found beside their code, native addons), those the server imports on first use (each test file
 * would compile them), and the plain JavaScript files among the sources (the email sandbox's).
 */
const LEFT_TO_NODE = [...EXTERNAL, "stripe", "nodemailer", "@simplewebauthn/server", "bcryptjs"];
const packageName = (path) => path.split("/").slice(0, path.startsWith("@") ? 2 : 1).join("/");
const ownSource = (path) => path.startsWith(join(repository, "packages")) && !path.includes(`${sep}node_modules${sep}`) && path.includes(`${sep}src${sep}`);

const RESOLVING = Symbol("resolving");

/**
 * The resolver for both builds; `bundledPackages` collects the files the sources' bundled package imports resolve to
 * (`hono/cookie` → …/hono/dist/helper/cookie/index.js).
 */
function externals(bundledPackages = new Set()) {
  return {
    name: "latchkey-test-sources-externals",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith("node:") || builtinModules.includes(args.path) || LEFT_TO_NODE.includes(packageName(args.path))) return { path: args.path, external: true };
        if (args.pluginData === RESOLVING || args.path.startsWith("@latchkey/") || !ownSource(args.importer)) return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: RESOLVING });
        if (found.errors.length > 0 || found.external) return undefined;
        bundledPackages.add(found.path);
        return { path: found.path };
      });
      build.onResolve({ filter: /\.m?js$/ }, (args) => {
        if (!ownSource(args.importer) || !args.path.startsWith(".")) return undefined;
        const path = resolve(dirname(args.importer), args.path);
        return ownSource(path) && /\.mjs$/.test(path) ? { path, external: true } : undefined;
      });
    },
  };
}

function sourceModules() {
  const modules = [];
  for (const dir of SOURCE_DIRS) {
    for (const entry of readdirSync(join(repository, dir), { recursive: true, withFileTypes: true })) {
      const path = join(entry.parentPath, entry.name);
      if (entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") && !SCRIPTS.includes(path)) modules.push(path);
    }
  }
  return modules.sort();
}

/** Runtime export names per entry (`{ name: file }`), from esbuild's metafile of a build with them all as entries. */
async function exportNames(entryPoints, bundledPackages) {
  const { metafile } = await build({
    entryPoints,
    bundle: true,
    splitting: true,
    write: false,
    metafile: true,
    outdir: "/nowhere",
    platform: "node",
    format: "esm",
    conditions: ["source"],
    plugins: [externals(bundledPackages)],
    logLevel: "warning",
    absWorkingDir: repository,
  });
  return new Map(Object.entries(metafile.outputs).flatMap(([path, output]) => (output.entryPoint ? [[basename(path, ".js"), output.exports]] : [])));
}

/**
 * Writes the bundle, a facade per source module (and per package file the sources import whose copy is in the bundle:
 * a test file importing `kysely` or `hono/http-exception` gets the server's own instance, so classes and symbols are
 * one), and map.json: source or package file → facade.
 */
export async function bundleTestSources(dir) {
  const modules = sourceModules();
  const packages = new Set();
  const moduleNames = await exportNames(Object.fromEntries(modules.map((path, index) => [`m${index}`, path])), packages);
  const packageList = [...packages].sort();
  const packageNames = await exportNames(Object.fromEntries(packageList.map((path, index) => [`p${index}`, path])));
  // A CommonJS package's facade would have only `default`, where Node gives its named exports too: those stay Node's.
  const members = [
    ...modules.map((path, index) => ({ key: path, target: path, prefix: `m${index}`, names: moduleNames.get(`m${index}`) ?? [], facade: relative(repository, path) })),
    ...packageList.map((path, index) => ({ key: path, target: path, prefix: `p${index}`, names: packageNames.get(`p${index}`) ?? [], facade: relative(repository, path) })).filter((member) => member.names.some((name) => name !== "default")),
  ];
  const entry = join(dir, "entry.ts");
  mkdirSync(dir, { recursive: true });
  writeFileSync(entry, members.map(({ target, prefix, names }) => `export { ${names.map((name) => `${name} as ${prefix}$${name}`).join(", ")} } from ${JSON.stringify(target)};`).join("\n"));
  await bundleSources({
    entry,
    outfile: join(dir, "sources.js"),
    external: [],
    placeOf: (path) => path,
    options: { plugins: [externals()], sourcemap: "linked", sourcesContent: false },
  });
  const map = {};
  for (const { key, prefix, names, facade } of members) {
    const path = join(dir, "m", `${facade}.mjs`);
    mkdirSync(dirname(path), { recursive: true });
    const bundle = relative(dirname(path), join(dir, "sources.js")).split(sep).join("/");
    writeFileSync(path, `export { ${names.map((name) => `${prefix}$${name} as ${name}`).join(", ")} } from ${JSON.stringify(bundle)};\n`);
    map[key] = path;
  }
  writeFileSync(join(dir, "map.json"), JSON.stringify(map));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleTestSources(resolve(process.argv[2]));
