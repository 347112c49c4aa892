// Types of builds.mjs, for the TypeScript tests that reuse its builds (packages/dashboard/test).
export interface Build {
  name: string;
  sources: string[];
  outputs: string[];
  command: string[];
}
export declare const BUILDS: Build[];
export declare function staleness(root: string, build: Build): string | undefined;
export declare function dateOutputs(root: string, build: Build, startedAt: number): void;
