import * as shared from "./account-elements-shared.js";

/** The elements of `latchkey-account.js` (account-elements.ts), which the drop-in bundles load on use (the payment widgets too). */
export const ACCOUNT_ELEMENT_TAGS = [
  "auth-account-settings",
  "auth-profile-settings",
  "auth-email-settings",
  "auth-password-settings",
  "auth-connected-accounts-settings",
  "auth-passkey-settings",
  "auth-mfa-settings",
  "auth-session-settings",
  "auth-team-list-settings",
  "auth-notification-settings",
  "auth-api-key-settings",
  "auth-delete-account",
  "auth-team-settings",
  "auth-team-invitation",
  "auth-pricing-table",
  "auth-item-balance",
] as const;
export type AccountElementTag = (typeof ACCOUNT_ELEMENT_TAGS)[number];

/** Where the chunk finds what it shares with the bundle (vite.config.ts builds its imports to read this). */
export const SHARED_KEY = "latchkey.account-elements.shared";

declare const __LATCHKEY_ACCOUNT_MODULE__: string | undefined;
type Chunk = typeof import("./account-elements.js");
const importChunk: () => Promise<Chunk> =
  typeof __LATCHKEY_ACCOUNT_MODULE__ === "string"
    ? // Resolved while the bundle's script runs: later, a classic script no longer knows its own URL.
      ((url) => () => import(/* @vite-ignore */ /* webpackIgnore: true */ url) as Promise<Chunk>)(new globalThis.URL(__LATCHKEY_ACCOUNT_MODULE__, import.meta.url).href)
    : () => import("./account-elements.js");
let defined: Promise<void> | undefined;

/**
 * Loads `latchkey-account.js` (once) and defines its elements; elements already on the page upgrade then. The
 * bundle calls it when one of them appears in the document; a page that puts them into a shadow root of its
 * own (which the bundle cannot watch) calls it itself. A failed load is tried again on the next call.
 */
export function defineAccountElements(): Promise<void> {
  (globalThis as Record<symbol, unknown>)[Symbol.for(SHARED_KEY)] = shared;
  defined ??= importChunk().then(
    ({ ACCOUNT_ELEMENTS }) => {
      for (const [name, element] of Object.entries(ACCOUNT_ELEMENTS)) if (!customElements.get(name)) customElements.define(name, element);
    },
    (error: unknown) => {
      defined = undefined;
      throw error;
    },
  );
  return defined;
}

/** Defines the account elements as soon as one is in `root` (now or later), without loading them before. */
export function defineAccountElementsOnUse(root: Document): void {
  const selector = ACCOUNT_ELEMENT_TAGS.join(",");
  const load = (): void => {
    observer.disconnect();
    defineAccountElements().catch((error: unknown) => {
      console.error("Latchkey: could not load the account elements (latchkey-account.js)", error);
      observer.observe(root, { childList: true, subtree: true }); // the next one placed tries again
    });
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node instanceof Element && (node.matches(selector) || node.querySelector(selector))) return load();
      }
    }
  });
  if (root.querySelector(selector)) load();
  else observer.observe(root, { childList: true, subtree: true });
}
