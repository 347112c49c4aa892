import { pathToFileURL } from "node:url";
import { openSealedBytes, sealBytes, sealingKeyId } from "./sealed-text.js";

/**
 * Wraps and unwraps the data vault's per-value data keys (envelope encryption, vault-envelope.ts). This is the
 * one seam between the vault and its key-encryption key (KEK): by default the KEK is derived from
 * LATCHKEY_SERVER_SECRET, and an operator may plug in a cloud KMS instead by naming a module in
 * LATCHKEY_VAULT_KEY_WRAPPER that exports `createKeyWrapper({ serverSecret, previousServerSecrets })` returning
 * a KeyWrapper. Only data keys (32 bytes) ever cross it, never the values.
 */
export interface KeyWrapper {
  /** Names the KEK that wraps new data keys; rows wrapped under another id are re-wrapped by rotate-vault-keys. */
  currentKeyId(): string | Promise<string>;
  /** The data key wrapped under the current KEK, bound to `context` (unwrapping under another context fails). */
  wrap(dataKey: Uint8Array, context: string): Promise<{ wrapped: Uint8Array; keyId: string }>;
  /** The data key, or undefined when `keyId` is unknown or the wrapping does not open under `context`. */
  unwrap(wrapped: Uint8Array, keyId: string, context: string): Promise<Uint8Array | undefined>;
}

export interface KeyWrapperSecrets {
  serverSecret: string;
  previousServerSecrets: readonly string[];
}

const KEK_PURPOSE = "latchkey-data-vault-key-encryption-key";

/**
 * The default KEK: AES-256-GCM under an HKDF of the server secret (sealed-text.ts). Previous secrets still
 * unwrap, so rotating LATCHKEY_SERVER_SECRET loses nothing; `keyId` says which secret wrapped a row.
 */
export function serverSecretKeyWrapper({ serverSecret, previousServerSecrets }: KeyWrapperSecrets): KeyWrapper {
  const secrets = [serverSecret, ...previousServerSecrets];
  return {
    currentKeyId: () => sealingKeyId(serverSecret, KEK_PURPOSE),
    wrap: async (dataKey, context) => {
      const { sealed, keyId } = sealBytes(serverSecret, KEK_PURPOSE, context, dataKey);
      return { wrapped: sealed, keyId };
    },
    unwrap: async (wrapped, keyId, context) => openSealedBytes(secrets, KEK_PURPOSE, context, { sealed: wrapped, keyId })?.bytes,
  };
}

// One wrapper per secrets object (the server's env): a KMS module is imported once.
const wrappers = new WeakMap<KeyWrapperSecrets, Promise<KeyWrapper>>();

/** The wrapper the server uses: the module named by LATCHKEY_VAULT_KEY_WRAPPER, else the server-secret one. */
export function vaultKeyWrapperFor(secrets: KeyWrapperSecrets, modulePath = process.env.LATCHKEY_VAULT_KEY_WRAPPER): Promise<KeyWrapper> {
  let wrapper = wrappers.get(secrets);
  if (!wrapper) {
    wrapper = modulePath ? loadKeyWrapperModule(modulePath, secrets) : Promise.resolve(serverSecretKeyWrapper(secrets));
    wrappers.set(secrets, wrapper);
  }
  return wrapper;
}

async function loadKeyWrapperModule(modulePath: string, secrets: KeyWrapperSecrets): Promise<KeyWrapper> {
  const url = /^[a-z]+:/.test(modulePath) ? modulePath : pathToFileURL(modulePath).href;
  const loaded = (await import(url)) as { createKeyWrapper?: (s: KeyWrapperSecrets) => KeyWrapper | Promise<KeyWrapper> };
  if (typeof loaded.createKeyWrapper !== "function") {
    throw new Error(`LATCHKEY_VAULT_KEY_WRAPPER: ${modulePath} does not export a createKeyWrapper function`);
  }
  return loaded.createKeyWrapper(secrets);
}
