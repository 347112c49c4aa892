// `node packages/elements/scripts/app-size.mjs`: what the Latchkey packages add to a customer's app. Builds tiny
// apps with Vite's defaults (a production build, as `vite build` makes one) against the BUILT packages
// (`npm run build:packages` first: dist/, what the packages' `exports` give an app outside this repository) and
// prints the JavaScript a visit loads (the entry and its static imports, gzip -9), and what the app loads later,
// on use (dynamic imports).
//   --json        the figures as JSON instead of a table
//   --out <dir>   also writes each app's files to <dir>/<n>/ (test/app-size.e2e.test.ts opens them in Chromium)
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "vite";

const repository = fileURLToPath(new URL("../../../", import.meta.url));
// A page may give the app its project first (the test does); otherwise it builds and runs against nothing.
const OPTIONS = `(globalThis.latchkeyOptions ?? { projectId: "p", publishableClientKey: "pck_x", baseUrl: "https://auth.example.com" })`;
const REACT = `import { createElement as h } from "react";\nimport { createRoot } from "react-dom/client";`;

/** Each app's whole source: one module, as a customer's main.js would be. */
export const APPS = {
  // The package's main entry, which defines every element.
  "elements: the main entry": `
    import { init } from "@latchkey/elements";
    init(${OPTIONS});
    document.body.innerHTML = "<auth-sign-in></auth-sign-in>";`,
  "elements: @latchkey/elements/sign-in": `
    import { init } from "@latchkey/elements/sign-in";
    init(${OPTIONS});
    document.body.innerHTML = "<auth-sign-in></auth-sign-in>";`,
  // What React itself weighs, to tell the packages' share of the React apps.
  "react: React alone": `
    ${REACT}
    createRoot(document.body).render(h("p", null, "hello"));`,
  "react: AuthProvider and AuthSignIn": `
    ${REACT}
    import { AuthProvider, AuthSignIn } from "@latchkey/react";
    createRoot(document.body).render(h(AuthProvider, ${OPTIONS}, h(AuthSignIn)));`,
  // Every export kept (the namespace object escapes): every component and hook, as with no tree-shaking.
  "react: every export of @latchkey/react": `
    ${REACT}
    import * as Latchkey from "@latchkey/react";
    globalThis.latchkey = Latchkey;
    createRoot(document.body).render(h(Latchkey.AuthProvider, ${OPTIONS}, h(Latchkey.AuthSignIn)));`,
};

const ENTRY = "\0latchkey-app-size-entry.js";

/**
 * Builds one app (in memory) and measures it: `initial` is what a visit loads (the entry chunk and its static
 * imports), `onUse` the chunks it imports dynamically; `files` every chunk's code by file name.
 */
export async function measureApp(source) {
  const result = await build({
    configFile: false,
    // The repository's root: the app imports the packages as a customer's would, from node_modules.
    root: repository,
    logLevel: "silent",
    mode: "production",
    plugins: [{ name: "latchkey-app-size-entry", resolveId: (id) => (id === ENTRY ? id : null), load: (id) => (id === ENTRY ? source : null) }],
    build: { write: false, sourcemap: false, modulePreload: false, rollupOptions: { input: ENTRY }, reportCompressedSize: false },
  });
  const chunks = (Array.isArray(result) ? result : [result]).flatMap((output) => output.output).filter((file) => file.type === "chunk");
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const initial = new Set();
  const visit = (chunk) => {
    if (initial.has(chunk.fileName)) return;
    initial.add(chunk.fileName);
    for (const name of chunk.imports) visit(byName.get(name));
  };
  const entry = chunks.find((chunk) => chunk.isEntry);
  visit(entry);
  const gzip = (list) => list.reduce((total, chunk) => total + gzipSync(chunk.code, { level: 9 }).length, 0);
  return {
    initial: gzip(chunks.filter((chunk) => initial.has(chunk.fileName))),
    onUse: gzip(chunks.filter((chunk) => !initial.has(chunk.fileName))),
    entry: entry.fileName,
    files: Object.fromEntries(chunks.map((chunk) => [chunk.fileName, chunk.code])),
  };
}

/** Every app of APPS, one after another (the figures do not depend on how busy the machine is). */
export async function measureApps() {
  const sizes = {};
  for (const [name, source] of Object.entries(APPS)) {
    try {
      sizes[name] = await measureApp(source);
    } catch (error) {
      sizes[name] = { error: String(error?.message ?? error).split("\n")[0] };
    }
  }
  return sizes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = await measureApps();
  const out = process.argv.includes("--out") ? process.argv[process.argv.indexOf("--out") + 1] : undefined;
  Object.values(sizes).forEach((size, n) => {
    if (out && size.files) {
      for (const [fileName, code] of Object.entries(size.files)) {
        mkdirSync(dirname(join(out, String(n), fileName)), { recursive: true });
        writeFileSync(join(out, String(n), fileName), code);
      }
      size.dir = join(out, String(n));
    }
    delete size.files;
  });
  if (process.argv.includes("--json")) console.log(JSON.stringify(sizes));
  else {
    const kb = (n) => `${(n / 1024).toFixed(2)} KB`.padStart(10);
    console.log(`${"app".padEnd(42)}${"initial".padStart(10)}${"on use".padStart(10)}  (gzip -9)`);
    for (const [name, size] of Object.entries(sizes)) console.log(`${name.padEnd(42)}${size.error ? `  fails: ${size.error}` : kb(size.initial) + kb(size.onUse)}`);
    const share = (name) => (sizes[name].error ? "–" : kb(sizes[name].initial - sizes["react: React alone"].initial).trim());
    console.log(`\nLatchkey's share of the React apps: ${share("react: AuthProvider and AuthSignIn")} with sign-in, ${share("react: every export of @latchkey/react")} with everything`);
  }
}
