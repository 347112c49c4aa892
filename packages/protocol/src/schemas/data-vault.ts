import { z } from "zod";

/**
 * Wire shapes of the data vault (issue 33; SPEC.md §3 "Data vault"): `POST /data-vault/stores/{id}/set` and
 * `…/get`. The app sends only what it derived from a secret the server never sees: `hashed_key` (a PBKDF2 hash
 * of the key) and `encrypted_value` (the value, already encrypted by the app), both base64 text.
 */

export const dataVaultStoreParams = z.object({ id: z.string() });

/**
 * The SDKs send 44 characters (base64 of a SHA-256-sized hash). The bound is Latchkey's: the key is part of a
 * database index, whose entries PostgreSQL caps near 2.7 KB.
 */
export const MAX_DATA_VAULT_HASHED_KEY_LENGTH = 1024;
const hashedKey = z.string().min(1).max(MAX_DATA_VAULT_HASHED_KEY_LENGTH);

export const dataVaultSetBody = z.strictObject({
  hashed_key: hashedKey,
  // May be empty: the protocol stores whatever the app sends.
  encrypted_value: z.string(),
});
export type DataVaultSetBody = z.infer<typeof dataVaultSetBody>;

export const dataVaultSetResponse = z.strictObject({ success: z.literal(true) });

export const dataVaultGetBody = z.strictObject({ hashed_key: hashedKey });
export type DataVaultGetBody = z.infer<typeof dataVaultGetBody>;

export const dataVaultGetResponse = z.strictObject({ encrypted_value: z.string() });
