// Types of builds.mjs, for the TypeScript tests that reuse its builds (packages/dashboard/test).
export interface Build {
  name: string;
  sources: string[];
  outputs: string[];
  command: string[];
  /** Commands that together do what `command` does and may run at the same time (`npm start` runs them so). */
  parallel?: string[][];
}
export declare const BUILDS: Build[];
export declare function staleness(root: string, build: Build, newest?: Map<string, { path: string; mtimeMs: number } | undefined>): string | undefined;
export declare function dateOutputs(root: string, build: Build, startedAt: number): void;
