import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build as esbuild } from "esbuild";
import { minify } from "terser";
import { defaultClientConditions, defineConfig, type Plugin } from "vite";

/**
 * After minification the only line breaks left sit inside template literals: Lit templates and the
 * stylesheet, where the indentation after them means nothing (HTML and CSS collapse whitespace). Dropping
 * it saves ~10 % of the bundle. The ESM build is minified too (Vite leaves library ESM unminified).
 */
function compact(): Plugin {
  return {
    name: "latchkey-compact",
    async renderChunk(code, _chunk, options) {
      let out = code;
      if (options.format === "es") out = (await minify(out, { ecma: 2020, module: true, compress: { passes: 3 } })).code ?? out;
      return { code: out.replace(/\n[ \t]+/g, "\n").replace(/\n{2,}/g, "\n"), map: null };
    },
  };
}

/**
 * The drop-in bundle: `dist/latchkey.js` (ESM) and `dist/latchkey.iife.js` (a classic script that defines
 * the elements and a `Latchkey` global), with every dependency inside, and `dist/latchkey-sign-in.iife.js`
 * (sign-in only). `npm run size` prints their sizes.
 */
// The bundle is always a production build: under another NODE_ENV (vitest sets "test") Vite would resolve
// Lit's development build, larger and noisier.
process.env.NODE_ENV = "production";

/**
 * The message catalogues go next to the bundle (dist/locales/<locale>.json), where the bundle fetches the
 * active one from; English is built in.
 */
function locales(): Plugin {
  const dir = fileURLToPath(new URL("locales/", import.meta.url));
  return {
    name: "latchkey-locales",
    generateBundle() {
      for (const file of readdirSync(dir).filter((f) => f.endsWith(".json") && f !== "en.json")) {
        this.emitFile({ type: "asset", fileName: `locales/${file}`, source: readFileSync(dir + file, "utf8") });
      }
    },
  };
}

/**
 * Libraries the code loads only when they are needed, each built to its own module next to the bundles, which
 * fetch it from there (an IIFE cannot split off a chunk): @simplewebauthn/browser, which @latchkey/core loads
 * when a passkey ceremony starts (flows/webauthn.ts; ~1.5 KB gzip of the sign-in bundle otherwise), and uqr,
 * the QR code of <auth-mfa-settings>, loaded when someone turns two-factor authentication on (base/qr-code.ts;
 * ~3 KB gzip of the full bundle otherwise). Most visits use neither.
 */
const WEBAUTHN_MODULE = "latchkey-webauthn.js";
const QR_MODULE = "latchkey-qr.js";
const LAZY_MODULES = [
  {
    library: "@simplewebauthn/browser",
    fileName: WEBAUTHN_MODULE,
    contents: 'export { startAuthentication, startRegistration, WebAuthnError } from "@simplewebauthn/browser";',
    resolveDir: fileURLToPath(new URL("../core/", import.meta.url)),
  },
  { library: "uqr", fileName: QR_MODULE, contents: 'export { renderSVG } from "uqr";', resolveDir: fileURLToPath(new URL(".", import.meta.url)) },
];
function lazyModules(): Plugin {
  return {
    name: "latchkey-lazy-modules",
    enforce: "pre",
    // The bundles never take the branch that imports the library itself (webauthn.ts, qr-code.ts): keep it out of them.
    resolveId: (id) => (LAZY_MODULES.some((lazy) => lazy.library === id) ? { id, external: true } : null),
    async generateBundle() {
      for (const { fileName, contents, resolveDir } of LAZY_MODULES) {
        const built = await esbuild({ stdin: { contents, resolveDir }, bundle: true, format: "esm", target: "es2022", minify: true, write: false, legalComments: "none" });
        this.emitFile({ type: "asset", fileName, source: built.outputFiles[0]!.text });
      }
    },
  };
}

/**
 * `latchkey-account.js`: the account and team management elements (src/account-elements.ts), which the
 * bundles with every element load when one is placed on the page (src/account-elements-loader.ts). It takes
 * Lit, the base classes and the rest of src/account-elements-shared.ts from the bundle that loaded it (one Lit,
 * one language, one app registry): each import of those modules reads the names from the object the bundle
 * puts on the page. Any other module that both would contain fails the build.
 */
const ACCOUNT_MODULE = "latchkey-account.js";
const ACCOUNT_SHARED_KEY = "latchkey.account-elements.shared"; // SHARED_KEY in account-elements-loader.ts
function accountChunk(): Plugin {
  const src = fileURLToPath(new URL("src/", import.meta.url));
  const surface = [...readFileSync(src + "account-elements-shared.ts", "utf8").matchAll(/^export \{ ([^}]+) \} from "([^"]+)";$/gm)];
  return {
    name: "latchkey-account-chunk",
    async generateBundle(_options, bundle) {
      const sharedNames = new Map<string, string[]>(); // resolved path → names
      const root = fileURLToPath(new URL("../..", import.meta.url));
      const built = await esbuild({
        absWorkingDir: root,
        entryPoints: [src + "account-elements.ts"],
        bundle: true,
        format: "esm",
        target: "es2022",
        minify: true,
        write: false,
        metafile: true,
        legalComments: "none",
        conditions: ["source"],
        define: { __LATCHKEY_QR_MODULE__: JSON.stringify(`./${QR_MODULE}`), "process.env.NODE_ENV": JSON.stringify("production") },
        external: LAZY_MODULES.map((lazy) => lazy.library),
        plugins: [
          {
            name: "latchkey-account-shared",
            setup(build) {
              build.onStart(async () => {
                for (const [, names, specifier] of surface) {
                  const resolved = await build.resolve(specifier!, { kind: "import-statement", resolveDir: src, pluginData: { plain: true } });
                  if (resolved.errors.length) return { errors: resolved.errors };
                  sharedNames.set(resolved.path, names!.split(",").map((name) => name.trim()));
                }
                return undefined;
              });
              build.onResolve({ filter: /.*/ }, async (args) => {
                if (args.kind === "entry-point" || args.pluginData?.plain) return undefined;
                const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { plain: true } });
                return resolved.errors.length ? { errors: resolved.errors } : sharedNames.has(resolved.path) ? { path: resolved.path, namespace: "latchkey-shared" } : resolved;
              });
              build.onLoad({ filter: /.*/, namespace: "latchkey-shared" }, (args) => ({
                contents: `export const { ${sharedNames.get(args.path)!.join(", ")} } = globalThis[Symbol.for(${JSON.stringify(ACCOUNT_SHARED_KEY)})];`,
                loader: "js",
              }));
            },
          },
        ],
      });
      const inMain = new Set(Object.values(bundle).flatMap((chunk) => (chunk.type === "chunk" ? Object.keys(chunk.modules).filter((id) => chunk.modules[id]!.renderedLength > 0) : [])));
      const twice = Object.keys(built.metafile.inputs)
        .filter((input) => !input.startsWith("latchkey-shared:"))
        .map((input) => fileURLToPath(new URL(input, `file://${root}`)))
        .filter((path) => inMain.has(path));
      if (twice.length) this.error(`${ACCOUNT_MODULE} would have its own copy of modules the bundle has (add them to src/account-elements-shared.ts): ${twice.join(", ")}`);
      // Minified by terser and compacted as the bundles are (compact()): ~1 KB gzip less than esbuild's output.
      const minified = (await minify(built.outputFiles[0]!.text, { ecma: 2020, module: true, compress: { passes: 3 } })).code!;
      this.emitFile({ type: "asset", fileName: ACCOUNT_MODULE, source: minified.replace(/\n[ \t]+/g, "\n").replace(/\n{2,}/g, "\n") });
    },
  };
}

/** `--mode sign-in` builds the smallest bundle (sign-in only) next to the full one. */
export default defineConfig(({ mode }) => ({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [compact(), locales(), lazyModules(), ...(mode === "sign-in" ? [] : [accountChunk()])],
  // @latchkey/core from its TypeScript sources (the `source` export condition), not its built dist/.
  resolve: {
    conditions: ["source", ...defaultClientConditions],
    // The sign-in bundle leaves out what <auth-sign-in> never runs (see the two files' comments).
    alias:
      mode === "sign-in"
        ? [
            { find: /^(\.\/client-(team|account|project)-actions|\.\/client-connected-accounts|\.\.\/token-stores\/request-token-store|\.\/flows\/hosted-pages)\.js$/, replacement: fileURLToPath(new URL("src/sign-in-only-actions.ts", import.meta.url)) },
            { find: /^\.\/css-tag\.js$/, replacement: fileURLToPath(new URL("src/sign-in-only-lit-css.ts", import.meta.url)) },
          ]
        : [],
  },
  // Library mode leaves process.env.NODE_ENV (nanostores reads it) for a bundler that this bundle does not have.
  define: {
    __LATCHKEY_LOCALES_PATH__: JSON.stringify("./locales/"),
    __LATCHKEY_WEBAUTHN_MODULE__: JSON.stringify(`./${WEBAUTHN_MODULE}`),
    __LATCHKEY_QR_MODULE__: JSON.stringify(`./${QR_MODULE}`),
    __LATCHKEY_ACCOUNT_MODULE__: JSON.stringify(`./${ACCOUNT_MODULE}`),
    "process.env.NODE_ENV": JSON.stringify("production"),
  },
  build: {
    outDir: "dist",
    // dist/ also holds the package's own build (npm run build:packages: index.js, base/, elements/ …).
    emptyOutDir: false,
    target: "es2022",
    sourcemap: false,
    // terser's extra passes take ~0.5 KB gzip more off than esbuild's minifier: the budget is tight.
    minify: "terser",
    terserOptions: { ecma: 2020, compress: { passes: 3 } },
    lib:
      mode === "sign-in"
        ? { entry: fileURLToPath(new URL("src/sign-in-bundle.ts", import.meta.url)), name: "Latchkey", formats: ["iife"], fileName: () => "latchkey-sign-in.iife.js" }
        : {
            entry: fileURLToPath(new URL("src/drop-in-bundle.ts", import.meta.url)),
            name: "Latchkey",
            formats: ["es", "iife"],
            fileName: (format) => (format === "es" ? "latchkey.js" : "latchkey.iife.js"),
          },
  },
}));
