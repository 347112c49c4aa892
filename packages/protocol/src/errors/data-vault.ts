/** Errors about data vault stores and the hashed keys in them. */
import { defineKnownError } from "./known-error.js";

export const DataVaultStoreDoesNotExist = defineKnownError("DATA_VAULT_STORE_DOES_NOT_EXIST", {
  status: 400,
  build: (storeId: string) => ({
    message: `Data vault store with ID ${storeId} does not exist.`,
    details: { store_id: storeId },
  }),
  fromDetails: (d) => [d?.store_id],
});

export const DataVaultStoreHashedKeyDoesNotExist = defineKnownError("DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST", {
  status: 400,
  build: (storeId: string, hashedKey: string) => ({
    message: `Data vault store with ID ${storeId} does not contain a key with hash ${hashedKey}.`,
    details: { store_id: storeId, hashed_key: hashedKey },
  }),
  fromDetails: (d) => [d?.store_id, d?.hashed_key],
});
