import { createTokenVerifier, type TokenVerifier } from "@latchkey/core/server";

/** Which Latchkey project the app signs people in to, and where its server is. */
export interface LatchkeyConfig {
  projectId: string;
  /** The Latchkey server as this app's server reaches it, e.g. `http://localhost:8102`. */
  baseUrl: string;
  /**
   * Lets the server refresh an expired access token with the session's refresh token (one request to Latchkey,
   * only when the token has expired), so a visitor back after the token's lifetime stays signed in. Without it
   * an expired token counts as signed out until the browser refreshes it.
   */
  publishableClientKey?: string;
  /** The server's LATCHKEY_PUBLIC_URL when this app reaches it at another address (Docker): tokens name it. */
  publicUrl?: string;
}

/**
 * The configuration from the environment, read when first needed (not at import, so `next build` needs none):
 * LATCHKEY_PROJECT_ID, LATCHKEY_BASE_URL, LATCHKEY_PUBLISHABLE_CLIENT_KEY and LATCHKEY_PUBLIC_URL, each also
 * found under its NEXT_PUBLIC_ name (the first three are public, and the browser's provider needs them too).
 */
export function configFromEnv(env: Record<string, string | undefined> = process.env): LatchkeyConfig {
  const read = (name: string) => env[name] || env[`NEXT_PUBLIC_${name}`] || undefined;
  const required = (name: string) => {
    const value = read(name);
    if (!value) throw new Error(`@latchkey/next: set ${name} (or NEXT_PUBLIC_${name}) in the environment, or pass it to createLatchkey().`);
    return value;
  };
  const config: LatchkeyConfig = { projectId: required("LATCHKEY_PROJECT_ID"), baseUrl: required("LATCHKEY_BASE_URL") };
  const publishableClientKey = read("LATCHKEY_PUBLISHABLE_CLIENT_KEY");
  const publicUrl = read("LATCHKEY_PUBLIC_URL");
  if (publishableClientKey) config.publishableClientKey = publishableClientKey;
  if (publicUrl) config.publicUrl = publicUrl;
  return config;
}

// One verifier (and so one cached key set) per configuration for the life of the process: keys are fetched
// once, not per request.
const verifiers = new Map<string, TokenVerifier>();

export function verifierFor(config: LatchkeyConfig): TokenVerifier {
  const key = JSON.stringify([config.projectId, config.baseUrl, config.publicUrl]);
  let verifier = verifiers.get(key);
  if (!verifier) {
    verifier = createTokenVerifier({ projectId: config.projectId, baseUrl: config.baseUrl, ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}) });
    verifiers.set(key, verifier);
  }
  return verifier;
}
