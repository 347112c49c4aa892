/**
 * TSX → CommonJS, outside the sandbox (esbuild is native code: it must not run on untrusted input inside the
 * isolate, and compiling here keeps the isolate's work to rendering). Compiled modules are cached by a hash of the
 * source, so a template sent to many users or previewed again is compiled once.
 */
import { createHash } from "node:crypto";
import type { Message } from "esbuild";

export class TsxCompileError extends Error {}

const CACHE_SIZE = 500;
const compiled = new Map<string, Promise<string>>();

// Loaded with the first template compiled (the first mail a server renders): a server that renders none never needs it, and
// Node's loading of the package (~60 ms of CPU) is off every start and every test file's (issue 35).
let esbuildPackage: Promise<typeof import("esbuild")> | undefined;

function describe(kind: string, message: Message): string {
  const where = message.location ? ` at line ${message.location.line}, column ${message.location.column + 1}` : "";
  return `could not compile the ${kind}${where}: ${message.text}`;
}

async function compile(source: string, kind: string): Promise<string> {
  const { transform } = await (esbuildPackage ??= import("esbuild"));
  try {
    const result = await transform(source, {
      loader: "tsx",
      format: "cjs",
      jsx: "automatic",
      target: "es2022",
      sourcefile: `${kind}.tsx`,
      logLevel: "silent",
    });
    return result.code;
  } catch (error) {
    const first = (error as { errors?: Message[] }).errors?.[0];
    throw new TsxCompileError(first ? describe(kind, first) : `could not compile the ${kind}: ${String(error)}`);
  }
}

/** `kind` ("template", "theme") only words the error message; the cache is shared. */
export function compileTsx(source: string, kind: string): Promise<string> {
  const key = createHash("sha256").update(source).digest("base64url");
  let entry = compiled.get(key);
  if (entry) {
    compiled.delete(key);
    compiled.set(key, entry);
    return entry;
  }
  entry = compile(source, kind);
  compiled.set(key, entry);
  entry.catch(() => compiled.delete(key));
  if (compiled.size > CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
  return entry;
}
