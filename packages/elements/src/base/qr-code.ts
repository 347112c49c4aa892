/**
 * The QR-code library (uqr), loaded when someone turns two-factor authentication on rather than with the page:
 * it is ~3 KB gzip that nearly every visit would download for nothing. Bundlers make it a chunk of its own;
 * the drop-in bundles (which cannot split) load `latchkey-qr.js` from next to themselves, built with them
 * (vite.config.ts), as @latchkey/core does with the passkey library.
 */
declare const __LATCHKEY_QR_MODULE__: string | undefined;
type Library = Pick<typeof import("uqr"), "renderSVG">;
const importLibrary: () => Promise<Library> =
  typeof __LATCHKEY_QR_MODULE__ === "string"
    ? // Resolved while the bundle's script runs: later, a classic script no longer knows its own URL.
      ((url) => () => import(/* @vite-ignore */ /* webpackIgnore: true */ url) as Promise<Library>)(new globalThis.URL(__LATCHKEY_QR_MODULE__, import.meta.url).href)
    : () => import("uqr");
let library: Promise<Library> | undefined;

/** The library (loaded once); a failed load is tried again on the next call. */
export function loadQrCode(): Promise<Library> {
  library ??= importLibrary().catch((error: unknown) => {
    library = undefined;
    throw error;
  });
  return library;
}
