import { z } from "zod";

/**
 * Wire shapes of the data vault (issue 33; SPEC.md §3 "Data vault"): `POST /data-vault/stores/{id}/set` and
 * `…/get`. The app sends only what it derived from a secret the server never sees: `hashed_key` (a PBKDF2 hash
 * of the key) and `encrypted_value` (the value, already encrypted by the app), both base64 text.
 */

export const dataVaultStoreParams = z.object({ id: z.string() });

export const dataVaultSetBody = z.strictObject({
  hashed_key: z.string().min(1),
  // May be empty: the protocol stores whatever the app sends.
  encrypted_value: z.string(),
});
export type DataVaultSetBody = z.infer<typeof dataVaultSetBody>;

export const dataVaultSetResponse = z.strictObject({ success: z.literal(true) });

export const dataVaultGetBody = z.strictObject({ hashed_key: z.string().min(1) });
export type DataVaultGetBody = z.infer<typeof dataVaultGetBody>;

export const dataVaultGetResponse = z.strictObject({ encrypted_value: z.string() });
