/** The library script every sandbox isolate starts from (prebuilt where one is shipped or named for the test run). */
export declare function buildSandboxLibrary(): Promise<string>;
/** The library script built from the sources and the installed libraries. */
export declare function buildFromSources(): Promise<string>;
