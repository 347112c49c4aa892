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
 * @simplewebauthn/browser, which @latchkey/core loads only when a passkey ceremony starts (flows/webauthn.ts),
 * as `dist/latchkey-webauthn.js` next to the bundles, which fetch it from there: an IIFE cannot split off a
 * chunk, and most visits never use a passkey (it would be ~1.5 KB gzip of the sign-in bundle).
 */
const WEBAUTHN_MODULE = "latchkey-webauthn.js";
function lazyWebAuthn(): Plugin {
  const core = fileURLToPath(new URL("../core/", import.meta.url));
  return {
    name: "latchkey-lazy-webauthn",
    enforce: "pre",
    // The bundles never take the library's bundler branch in webauthn.ts: keep it out of them.
    resolveId: (id) => (id === "@simplewebauthn/browser" ? { id, external: true } : null),
    async generateBundle() {
      const built = await esbuild({
        stdin: { contents: 'export { startAuthentication, startRegistration, WebAuthnError } from "@simplewebauthn/browser";', resolveDir: core },
        bundle: true,
        format: "esm",
        target: "es2022",
        minify: true,
        write: false,
        legalComments: "none",
      });
      this.emitFile({ type: "asset", fileName: WEBAUTHN_MODULE, source: built.outputFiles[0]!.text });
    },
  };
}

/** `--mode sign-in` builds the smallest bundle (sign-in only) next to the full one. */
export default defineConfig(({ mode }) => ({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [compact(), locales(), lazyWebAuthn()],
  // @latchkey/core from its TypeScript sources (the `source` export condition), not its built dist/.
  resolve: {
    conditions: ["source", ...defaultClientConditions],
    // The sign-in bundle leaves out what <auth-sign-in> never runs (see the two files' comments).
    alias:
      mode === "sign-in"
        ? [
            { find: /^(\.\/client-(team|account)-actions|\.\/client-connected-accounts|\.\.\/token-stores\/request-token-store)\.js$/, replacement: fileURLToPath(new URL("src/sign-in-only-actions.ts", import.meta.url)) },
            { find: /^\.\/css-tag\.js$/, replacement: fileURLToPath(new URL("src/sign-in-only-lit-css.ts", import.meta.url)) },
          ]
        : [],
  },
  // Library mode leaves process.env.NODE_ENV (nanostores reads it) for a bundler that this bundle does not have.
  define: {
    __LATCHKEY_LOCALES_PATH__: JSON.stringify("./locales/"),
    __LATCHKEY_WEBAUTHN_MODULE__: JSON.stringify(`./${WEBAUTHN_MODULE}`),
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
            entry: fileURLToPath(new URL("src/index.ts", import.meta.url)),
            name: "Latchkey",
            formats: ["es", "iife"],
            fileName: (format) => (format === "es" ? "latchkey.js" : "latchkey.iife.js"),
          },
  },
}));
