/**
 * What the sign-in bundle builds in place of Lit's css-tag module (vite.config.ts swaps it): its elements
 * render into the light DOM with their own stylesheet (base/styles.ts), so Lit's shadow-root styles
 * (`static styles`, adopted into a shadow root) never run there, and the module would be ~0.4 KB gzip of the
 * bundle's 22 KB budget. ReactiveElement imports the first two; `lit` re-exports the others.
 */
export const getCompatibleStyle = <T>(style: T): T => style;
export const adoptStyles = (): void => {};
export const supportsAdoptingStyleSheets = false;
export const css = undefined;
export const unsafeCSS = undefined;
export const CSSResult = undefined;
