export declare const OMNIBOX_POPUP_FEATURES: string[];
export declare function playwrightDisabledFeatures(): string[] | undefined;
export declare const SPARE_RENDERER_FEATURES: string[];
export declare const UNUSED_FEATURES_OFF: string[];
export declare const BASE_CHROMIUM_ARGS: string[];
export declare const CHROMIUM_ARGS: string[];
