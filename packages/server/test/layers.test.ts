import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The server's layers import downwards only: routes → http → services → cache / email / crypto / config → db.
 * Services take their dependencies (services/deps.ts) as arguments, so they never reach up into the HTTP
 * layer, and the caches hold rows typed in db/rows.ts, so caches and services do not import each other.
 */
const SRC = join(import.meta.dirname, "..", "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** Every relative import of every source file, as [importing folder, imported folder]. */
function folderImports(): Array<{ file: string; from: string; to: string }> {
  return sourceFiles(SRC).flatMap((file) => {
    const from = relative(SRC, file).split("/")[0]!;
    const imports = [...readFileSync(file, "utf8").matchAll(/^\s*(?:import|export)\b[^;]*?from\s+"(\.[^"]+)"/gms)].map((m) => m[1]!);
    return imports.map((specifier) => ({ file: relative(SRC, file), from, to: relative(SRC, join(file, "..", specifier)).split("/")[0]! }));
  });
}

const FORBIDDEN: Record<string, string[]> = {
  services: ["http", "routes", "app.ts"],
  cache: ["services", "http", "routes"],
  db: ["services", "http", "routes", "cache"],
  crypto: ["services", "http", "routes"],
  config: ["services", "http", "routes"],
  email: ["http", "routes"],
  // The TSX email renderer is a pure function of its input: no database, services or HTTP.
  "email-rendering": ["db", "cache", "services", "http", "routes"],
  http: ["routes"],
};

describe("the server's layers", () => {
  it("import only downwards", () => {
    const imports = folderImports();
    expect(imports.length).toBeGreaterThan(100);
    const violations = imports.filter(({ from, to }) => FORBIDDEN[from]?.includes(to)).map(({ file, to }) => `${file} imports ${to}/`);
    expect(violations).toEqual([]);
  });
});
