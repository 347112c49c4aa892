import { defaultClientConditions, type Plugin, type UserConfig } from "vite";

/**
 * What the single-page apps built with vite (the React demo, the dashboard) share: React's automatic JSX runtime
 * through esbuild (no fast refresh needed), the workspace packages' TypeScript sources (the `source` export
 * condition, so no package build comes first), and the build into `dist` with source maps.
 */
export function singlePageAppConfig(options: { root: string; base: string; build?: UserConfig["build"] }): UserConfig {
  return {
    root: options.root,
    base: options.base,
    esbuild: { jsx: "automatic" },
    plugins: [withoutUseClient()],
    resolve: { conditions: ["source", ...defaultClientConditions] },
    logLevel: "warn",
    build: { outDir: "dist", emptyOutDir: true, sourcemap: true, ...options.build },
  };
}

/**
 * @latchkey/react's entry and TanStack Table's modules start with "use client", for React Server Components. A
 * single-page app has none: the directive means nothing there, and Rollup would warn that it drops it (and fail
 * to map the warning).
 */
function withoutUseClient(): Plugin {
  const directive = /^(['"])use client\1;?/;
  return {
    name: "latchkey-without-use-client",
    enforce: "pre",
    transform(code) {
      const found = directive.exec(code)?.[0];
      // Blanked to the same length, so positions, and the source map (`map: null`: unchanged), stay true.
      if (found) return { code: " ".repeat(found.length) + code.slice(found.length), map: null };
    },
  };
}
