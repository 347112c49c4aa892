#!/usr/bin/env node
// `npm run build --workspace @latchkey/server`: the server as one JavaScript file, dist/main.js (with the chunks beside it
// that it loads on first use, bundleServer), that `npm start`
// runs with plain Node (issue 17, cold start). The tests and `npm run start --workspace @latchkey/server` keep
// running the TypeScript sources through tsx; this file is only what Node loads faster.
import { readdirSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const serverDir = fileURLToPath(new URL("..", import.meta.url));

/**
 * Left to Node's own loading: packages that find files next to their code at run time (PGlite's WebAssembly
 * and data, Argon2's native addon, Pino's worker-thread transports, pg's optional native binding), the dev
 * OAuth provider (large, imported only in dev mode when first used) and esbuild (the email renderer compiles
 * TSX with it; it runs its native binary found next to its code). The email sandbox process (src/email-rendering/sandbox-process.mjs) is a separate file Node runs as it
 * is. Every other dependency is inside the bundle: loading ~600 small modules one by one took ~200 ms.
 */
export const EXTERNAL = ["@electric-sql/pglite", "@node-rs/argon2", "pino", "pg", "pg-native", "oidc-provider", "esbuild"];

/**
 * Bundles `entry` and the TypeScript sources it imports into one ES module, `outfile`; `external` packages stay
 * imports Node resolves. The sources find files relative to themselves (`new URL("./migrations/",
 * import.meta.url)`, the elements' and the demo's built files): in the bundle each source module's
 * `import.meta.url` becomes the URL of `placeOf(its source path)` relative to the bundle, where those files are
 * (the source file itself for the repository's bundle; its copy under runtime/ for the package).
 */
export async function bundleSources({ entry, outfile, external, placeOf, options = {} }) {
  const ownUrls = {
    name: "latchkey-own-import-meta-url",
    setup(build) {
      build.onLoad({ filter: /\/packages\/[^/]+\/src\/.*\.ts$/ }, async (args) => {
        const fromBundle = relative(dirname(outfile), placeOf(args.path)).split(sep).join("/");
        const ownUrl = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
        return { contents: (await readFile(args.path, "utf8")).replaceAll("import.meta.url", ownUrl), loader: "ts" };
      });
    },
  };
  return await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // The workspace packages (@latchkey/protocol) from their TypeScript sources, as everywhere in the repository.
    conditions: ["source"],
    external: external.flatMap((name) => [name, `${name}/*`]),
    // CommonJS dependencies inside an ES module bundle still call require() for Node's built-in modules.
    banner: { js: 'import { createRequire as latchkeyCreateRequire } from "node:module"; const require = latchkeyCreateRequire(import.meta.url);' },
    logLevel: "warning",
    ...options,
    plugins: [ownUrls, ...(options.plugins ?? [])],
  });
}

/**
 * The repository's bundle: dist/main.js, and next to it a chunk for each module the server imports only when first
 * used (`await import(…)`: @simplewebauthn/server with its ASN.1 and X.509 code, the CLI's commands…), which Node
 * then neither reads nor compiles at start (issue 35), and the code both share. Chunks of earlier builds are removed.
 * `dist` puts it elsewhere (the test run's own, test/support/server-bundle.global.ts): a directory inside
 * packages/server, where Node finds the same packages for its imports as from dist/.
 */
export async function bundleServer(dist = `${serverDir}dist/`, entries = ["main"]) {
  const { metafile } = await bundleSources({
    entry: `${serverDir}src/main.ts`,
    outfile: `${dist}main.js`,
    external: EXTERNAL,
    placeOf: (path) => path,
    // In dist/ itself, beside main.js: each source's import.meta.url is mapped relative to there (bundleSources).
    // Other entries (the test run's: the CLI, the standalone dev OpenID provider) go beside it, sharing its chunks.
    options: {
      entryPoints: entries.map((entry) => `${serverDir}src/${entry}.ts`),
      sourcemap: "linked",
      sourcesContent: false,
      splitting: true,
      outfile: undefined,
      outdir: dist,
      entryNames: "[name]",
      chunkNames: "chunk-[hash]",
      metafile: true,
    },
  });
  const written = new Set(Object.keys(metafile.outputs).map((path) => path.split("/").pop()));
  for (const name of readdirSync(dist)) if (/^chunk-[\w-]+\.js(\.map)?$/.test(name) && !written.has(name)) rmSync(`${dist}${name}`, { force: true });
}

// `node scripts/bundle.mjs [dist/ [entry…]]` (entries as paths under src/ without .ts; main by default)
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [dist, ...entries] = process.argv.slice(2);
  await bundleServer(dist ? resolve(dist) + "/" : undefined, entries.length > 0 ? entries : undefined);
}
