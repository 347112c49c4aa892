import { readFileSync } from "node:fs";
import type { Plugin } from "vite";

/**
 * Vite resolver for the projects whose test files start servers in-process: an import that resolves to one of the
 * server's or protocol's source modules is answered with that module's facade in the run's bundle of the sources
 * (source-bundle.mjs, made by source-bundle.global.ts), which vite-node leaves to Node as it does npm packages
 * (a `.mjs` file under node_modules), and so is an import of a package the bundle holds. One file Node loads once
 * per worker instead of ~300 modules vite-node evaluates one by one and ~600 files of packages (issue 35). Without
 * the bundle (its set-up failed, another runner) every import resolves as before. Test files that spy on a module's
 * export (vi.spyOn needs vite-node's own module objects) run in a project without it.
 */
export function bundledSources(): Plugin {
  let facades: Map<string, string> | null | undefined;
  const facadeMap = (): Map<string, string> | null => {
    if (facades !== undefined) return facades;
    const dir = process.env.LATCHKEY_TEST_SOURCE_BUNDLE;
    facades = dir ? new Map(Object.entries(JSON.parse(readFileSync(`${dir}/map.json`, "utf8")) as Record<string, string>)) : null;
    return facades;
  };
  return {
    name: "latchkey-bundled-sources",
    enforce: "pre",
    async resolveId(source, importer, options) {
      const map = importer ? facadeMap() : null;
      if (!map || /^(node:|vitest|\0|\/@)/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      // A source module, or a package file the bundle holds (kysely, jose, hono…: the server's own copy, so classes
      // and symbols are one).
      const facade = resolved && map.get(resolved.id);
      return facade ? { id: facade, external: true } : resolved;
    },
  };
}
