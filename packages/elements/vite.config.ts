import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
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

/** `--mode sign-in` builds the smallest bundle (sign-in only) next to the full one. */
export default defineConfig(({ mode }) => ({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [compact(), locales()],
  // @latchkey/core from its TypeScript sources (the `source` export condition), not its built dist/.
  resolve: { conditions: ["source", ...defaultClientConditions] },
  // Library mode leaves process.env.NODE_ENV (nanostores reads it) for a bundler that this bundle does not have.
  define: { __LATCHKEY_LOCALES_PATH__: JSON.stringify("./locales/"), "process.env.NODE_ENV": JSON.stringify("production") },
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
