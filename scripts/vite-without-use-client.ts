import type { Plugin } from "vite";

/**
 * @latchkey/react's entry starts with "use client", for React Server Components. The single-page apps built with
 * vite (the React demo, the dashboard) have none: the directive means nothing there, and Rollup would warn that
 * it drops it (and fail to map the warning).
 */
export function withoutUseClient(): Plugin {
  const directive = '"use client";';
  return {
    name: "latchkey-without-use-client",
    enforce: "pre",
    transform(code) {
      // Blanked to the same length, so positions, and the source map (`map: null`: unchanged), stay true.
      if (code.startsWith(directive)) return { code: " ".repeat(directive.length) + code.slice(directive.length), map: null };
    },
  };
}
