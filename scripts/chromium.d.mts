// Types of chromium.mjs, for the TypeScript tests that launch the browser.
export declare const KNOWN_LOCATIONS: readonly string[];
export declare const COMMAND_NAMES: readonly string[];
export declare const HOW_TO_GET_ONE: string;
export declare class NoChromiumError extends Error {}
export interface ChromiumSearch {
  env?: Record<string, string | undefined>;
  knownLocations?: readonly string[];
}
export declare function chromiumPath(search?: ChromiumSearch): string;
export declare function ensureChromium(search?: ChromiumSearch & { isRoot?: boolean; log?: (line: string) => void }): string;
