import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/**
 * A web-test-runner plugin that lets browser tests import React. React and ReactDOM ship only CommonJS,
 * which a browser cannot import; this plugin bundles them once with esbuild into ONE ES module (one React
 * instance, so hooks work across react and react-dom) and answers `import … from "react"` (and the other
 * entry points below) with a small module re-exporting that instance's named exports.
 */
const MODULES = ["react", "react/jsx-runtime", "react/jsx-dev-runtime", "react-dom", "react-dom/client", "react-dom/server"] as const;
const PREFIX = "/__latchkey_commonjs__/";
const BUNDLE = `${PREFIX}react-bundle.js`;
const repository = fileURLToPath(new URL("../../../../", import.meta.url));

const fileOf = (name: string) => `${PREFIX}${name.replaceAll("/", "__")}.js`;
const identifierOf = (name: string) => name.replace(/[^a-z]+(.)?/gi, (_, next: string | undefined) => (next ?? "").toUpperCase());

interface ServeContext {
  path: string;
}

export function reactAsEsmPlugin() {
  let bundle: Promise<string> | undefined;
  return {
    name: "latchkey-react-as-esm",
    resolveImport({ source }: { source: string }): string | undefined {
      return (MODULES as readonly string[]).includes(source) ? fileOf(source) : undefined;
    },
    async serve(context: ServeContext): Promise<{ body: string; type: string } | undefined> {
      if (!context.path.startsWith(PREFIX)) return undefined;
      if (context.path === BUNDLE) return { body: await (bundle ??= buildBundle()), type: "js" };
      const name = MODULES.find((module) => fileOf(module) === context.path);
      if (!name) return undefined;
      const names = exportNames(name);
      const id = identifierOf(name);
      const body = [
        `import { ${id} } from "${BUNDLE}";`,
        `export default ${id}.default ?? ${id};`,
        names.length ? `export const { ${names.join(", ")} } = ${id};` : "",
      ].join("\n");
      return { body, type: "js" };
    },
  };
}

const exportNamesCache = new Map<string, string[]>();

/**
 * The named exports of a CommonJS module, read in a separate Node process: loading React here would make
 * it write to the test runner's console, which web-test-runner has replaced.
 */
function exportNames(name: string): string[] {
  const cached = exportNamesCache.get(name);
  if (cached) return cached;
  const script = `process.stdout.write(JSON.stringify(Object.keys(require(${JSON.stringify(name)}))))`;
  const output = execFileSync(process.execPath, ["-e", script], { cwd: repository, env: { ...process.env, NODE_ENV: "production" }, encoding: "utf8" });
  const names = (JSON.parse(output) as string[]).filter((key) => key !== "default" && /^[A-Za-z_$][\w$]*$/.test(key));
  exportNamesCache.set(name, names);
  return names;
}

async function buildBundle(): Promise<string> {
  const imports = MODULES.map((name) => `import * as ${identifierOf(name)} from "${name}";`);
  const result = await build({
    stdin: { contents: `${imports.join("\n")}\nexport { ${MODULES.map(identifierOf).join(", ")} };\n`, resolveDir: repository, loader: "js" },
    bundle: true,
    format: "esm",
    target: "es2022",
    write: false,
    // React's development build: its warnings point at the component that caused them.
    define: { "process.env.NODE_ENV": JSON.stringify("development") },
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}
