import { isKnownError } from "../http/client-errors.js";
import type { AppContext } from "./app-context.js";
import { decryptVaultValue, derivedVaultKey, encryptVaultValue, hashVaultKey } from "./data-vault-crypto.js";

const HASHED_KEY_DOES_NOT_EXIST = new Set(["DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST"]);

export interface DataVaultSecretOptions {
  /** A secret only the app holds: the key is hashed and the value encrypted with it before they leave the app. */
  secret: string;
}

export interface DataVaultStore {
  readonly id: string;
  setValue(key: string, value: string, options: DataVaultSecretOptions): Promise<void>;
  /** The value, or null when the store holds none for this key and secret (a wrong secret reads as none). */
  getValue(key: string, options: DataVaultSecretOptions): Promise<string | null>;
}

export interface ServerDataVaultActions {
  /** A store of the project's data vault (made in the config, `dataVault.stores.<id>`); no request is made yet. */
  getDataVaultStore(id: string): Promise<DataVaultStore>;
}

function checkSecret(options: DataVaultSecretOptions): void {
  // As the reference: a missing secret would otherwise hash as the text "undefined".
  if (typeof options?.secret !== "string") throw new TypeError(`secret must be a string, got ${typeof options?.secret}`);
}

/**
 * The data vault of a server app (issue 33), wire-compatible with the reference SDK's: the same hashed keys and
 * encrypted values, so either SDK reads what the other wrote.
 *
 * @example
 * ```ts
 * const store = await app.getDataVaultStore("tokens");
 * await store.setValue(`github:${user.id}`, token, { secret: process.env.VAULT_SECRET! });
 * const again = await store.getValue(`github:${user.id}`, { secret: process.env.VAULT_SECRET! });
 * ```
 */
export function serverDataVaultActions(ctx: AppContext): ServerDataVaultActions {
  const path = (id: string, op: "get" | "set") => `/data-vault/stores/${encodeURIComponent(id)}/${op}`;
  return {
    async getDataVaultStore(id) {
      return {
        id,
        async setValue(key, value, options) {
          checkSecret(options);
          // The costly derivation (100,000 PBKDF2 rounds) once, for both the hashed key and the encryption.
          const derived = await derivedVaultKey(options.secret, key);
          const [hashedKey, encryptedValue] = await Promise.all([hashVaultKey(options.secret, key, derived), encryptVaultValue(derived, value)]);
          await ctx.call({ method: "POST", path: path(id, "set"), session: null, body: { hashed_key: hashedKey, encrypted_value: encryptedValue } });
        },
        async getValue(key, options) {
          checkSecret(options);
          const derived = await derivedVaultKey(options.secret, key);
          const hashedKey = await hashVaultKey(options.secret, key, derived);
          let answer: { encrypted_value: string };
          try {
            answer = await ctx.call<{ encrypted_value: string }>({ method: "POST", path: path(id, "get"), session: null, body: { hashed_key: hashedKey } });
          } catch (error) {
            if (isKnownError(error, HASHED_KEY_DOES_NOT_EXIST)) return null;
            throw error;
          }
          return decryptVaultValue(derived, answer.encrypted_value);
        },
      };
    },
  };
}
