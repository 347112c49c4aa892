import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/browser";

/**
 * The browser side of WebAuthn ceremonies, by @simplewebauthn/browser (the library whose JSON the server's
 * @simplewebauthn/server verifies). It turns the server's JSON options into the browser's binary form and the
 * credential back, keeps one AbortController for all ceremonies (a new ceremony cancels a pending one, such
 * as the conditional-UI request behind the email field), and names browser failures with the protocol's
 * WebAuthn error codes (SPEC.md §8).
 *
 * The library is loaded when a ceremony starts, not with the page: most visits never use a passkey, and the
 * drop-in bundles' budgets count every byte. Bundlers make it a chunk of its own; the drop-in bundles (which
 * cannot split) load `latchkey-webauthn.js` from next to themselves, built with them (vite.config.ts).
 */
declare const __LATCHKEY_WEBAUTHN_MODULE__: string | undefined;
type Library = typeof import("@simplewebauthn/browser");
const importLibrary: () => Promise<Library> =
  typeof __LATCHKEY_WEBAUTHN_MODULE__ === "string"
    ? // Resolved while the bundle's script runs: later, a classic script no longer knows its own URL.
      ((url) => () => import(/* @vite-ignore */ /* webpackIgnore: true */ url) as Promise<Library>)(new globalThis.URL(__LATCHKEY_WEBAUTHN_MODULE__, import.meta.url).href)
    : () => import("@simplewebauthn/browser");
let library: Promise<Library> | undefined;

/** Starts loading the library (once); call it early, e.g. while asking the server for the options. */
export function loadWebAuthn(): Promise<Library> {
  library ??= importLibrary().catch((error: unknown) => {
    library = undefined; // a network failure: the next ceremony tries again
    throw error;
  });
  return library;
}

/** A browser failure of a ceremony, with the protocol's code (`ERROR_CEREMONY_ABORTED`, …) as its name. */
export class WebAuthnCeremonyError extends Error {
  constructor(message: string, readonly code: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = code;
  }
}

async function ceremony<T>(run: (lib: Library) => Promise<T>): Promise<T> {
  const lib = await loadWebAuthn();
  try {
    return await run(lib);
  } catch (error) {
    throw error instanceof lib.WebAuthnError ? new WebAuthnCeremonyError(error.message, error.code, { cause: error }) : error;
  }
}

export function createCredential(options: Record<string, unknown>): Promise<RegistrationResponseJSON> {
  return ceremony((lib) => lib.startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON }));
}

/**
 * `autofill: true` is the conditional-UI request. The library's check for an `autocomplete="… webauthn"`
 * input is off: it searches `document` only, and the field may sit in a page's own shadow root.
 */
export function getCredential(options: Record<string, unknown>, autofill: boolean): Promise<AuthenticationResponseJSON> {
  return ceremony((lib) =>
    lib.startAuthentication({
      optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
      useBrowserAutofill: autofill,
      verifyBrowserAutofillInput: false,
    }),
  );
}
