// Builds the one script every sandbox starts from: sandbox-runtime/runtime.js with React, react-dom's static
// renderer, the React Email components (Tailwind included), arktype and html-to-text (the plain text is made in the
// sandbox, under its limits), as a single IIFE (~2 MB minified).
// Built in memory the first time the sandbox process needs it (~0.2–0.5 s with esbuild), instead of a committed
// multi-megabyte generated file or an extra install step; the process then reuses it (and V8's code cache of it)
// for every isolate it creates.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const require = createRequire(import.meta.url);
const runtimeEntry = fileURLToPath(new URL("./sandbox-runtime/runtime.js", import.meta.url));
const renderStub = fileURLToPath(new URL("./sandbox-runtime/render-stub.js", import.meta.url));

// Tailwind's component suspends on a promise kept in a private map; the sandbox renders with React's synchronous
// static renderer (no streams in an isolate), so it needs to know which promise to wait for before retrying.
const SUSPEND_NEEDLE = "promiseStates.set(key, state);";
const exposeTailwindSuspense = {
  name: "latchkey-tailwind-suspense",
  setup(build) {
    build.onLoad({ filter: /@react-email[\\/]tailwind[\\/]dist[\\/]index\.mjs$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (!source.includes(SUSPEND_NEEDLE)) {
        throw new Error(`@react-email/tailwind changed: "${SUSPEND_NEEDLE}" not found in ${args.path}`);
      }
      return {
        contents: source.replace(SUSPEND_NEEDLE, `${SUSPEND_NEEDLE} globalThis.__latchkeySuspend(state.promise);`),
        loader: "js",
      };
    });
  },
};

// React Email's CodeBlock defines ~300 Prism languages when its module loads, and each definition that extends another
// walks every grammar defined so far: ~70 % of the libraries' whole load into a new isolate (issue 35; the load
// then cost ~0.8 s of CPU per project's first mail). They are defined before the first render that mentions CodeBlock
// (sandbox-process.mjs), as the libraries' load is, outside the render's own CPU time: on a slow machine they took
// more than the render's 1 s by themselves. A CodeBlock render defines them too, should it come first. Prism
// stays out of a template's reach either way (CodeBlock keeps it to itself, and Prism finds no global to register
// on in an isolate), so what a render can change is the same as before.
const PRISM_START = "const Prism$1 = PrismImport.default ?? PrismImport;\n";
const PRISM_END = "//#endregion\n//#region src/code-block.tsx\n";
const CODE_BLOCK_BODY = "const CodeBlock = React$1.forwardRef(({ code, fontFamily, lineNumbers, theme, language,...rest }, ref) => {\n";
const lazyPrismLanguages = {
  name: "latchkey-lazy-prism-languages",
  setup(build) {
    build.onLoad({ filter: /@react-email[\\/]code-block[\\/]dist[\\/]index\.mjs$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const start = source.indexOf(PRISM_START);
      const end = source.indexOf(PRISM_END);
      if (start < 0 || end < start || source.split(CODE_BLOCK_BODY).length !== 2) {
        throw new Error(`@react-email/code-block changed: its Prism languages or CodeBlock were not found in ${args.path}`);
      }
      const languages = source.slice(start + PRISM_START.length, end);
      const contents =
        source.slice(0, start + PRISM_START.length) +
        `let prismLanguagesDefined = false;\nfunction definePrismLanguages() {\nif (prismLanguagesDefined) return;\nprismLanguagesDefined = true;\n${languages}}\n` +
        // For the runtime, which takes it before any template runs (the host defines them before a render that
        // mentions CodeBlock, outside the render's CPU time) and removes the global.
        `globalThis.__latchkeyDefinePrismLanguages = definePrismLanguages;\n` +
        source.slice(end).replace(CODE_BLOCK_BODY, `${CODE_BLOCK_BODY}\tdefinePrismLanguages();\n`);
      return { contents, loader: "js" };
    });
  },
};

/**
 * The packaged server (scripts/package.mjs) ships the library script already built, here: React, React Email,
 * arktype and html-to-text are then not among its dependencies. The repository has no such file and builds it,
 * ~0.5 s of CPU (esbuild's threads) per sandbox process, unless LATCHKEY_TEST_EMAIL_LIBRARY names one built
 * for the whole test run (test/support/email-library.global.ts). The script runs inside the isolates, with no
 * more reach than a template has.
 */
const prebuilt = fileURLToPath(new URL("./sandbox-library.prebuilt.js", import.meta.url));

export async function buildSandboxLibrary() {
  for (const file of [process.env.LATCHKEY_TEST_EMAIL_LIBRARY, prebuilt]) {
    const shipped = file ? await readFile(file, "utf8").catch(() => undefined) : undefined;
    if (shipped !== undefined) return shipped;
  }
  return buildFromSources();
}

/** The library script from the sources and the installed libraries (scripts/package.mjs ships its result). */
export async function buildFromSources() {
  const result = await build({
    entryPoints: [runtimeEntry],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
    alias: {
      "@react-email/render": renderStub,
      // The legacy (synchronous, string) renderer only: the streaming one needs TextEncoder and ReadableStream.
      "react-dom/server.browser": join(dirname(require.resolve("react-dom/package.json")), "cjs/react-dom-server-legacy.browser.production.js"),
    },
    plugins: [exposeTailwindSuspense, lazyPrismLanguages],
  });
  return result.outputFiles[0].text;
}
