/**
 * PKCE (RFC 7636) for the browser flows that leave the page and come back with a code: OAuth sign-in and the
 * hosted pages' session hand-off. The verifier stays on this origin; only its S256 challenge travels.
 */

/** `bytes` random bytes as base64url: a PKCE verifier (32 bytes → 43 characters) or a state. */
export function randomBase64Url(bytes: number): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/**
 * The page is not a secure context (plain http, and not localhost), so the browser gives it no `crypto.subtle`,
 * which PKCE needs: the flow cannot start. Said as such (and in the console), not as the TypeError reading
 * `subtle.digest` would be.
 */
export class InsecureContextError extends Error {
  constructor(origin: string | undefined) {
    super(`${origin ?? "This page"} is not a secure context (no crypto.subtle for PKCE): use HTTPS or localhost.`);
    // People are shown a short message (the widgets); the developer reads why here.
    console.error(`Latchkey: ${this.message}`);
  }
}

/** RFC 7636 §4.2 S256: BASE64URL(SHA256(verifier)). */
export async function pkceChallenge(verifier: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new InsecureContextError((globalThis as { location?: { origin: string } }).location?.origin);
  return base64Url(new Uint8Array(await subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
