import { KnownErrors } from "@latchkey/protocol/errors";
import { dataVaultGetBody, dataVaultGetResponse, dataVaultSetBody, dataVaultSetResponse, dataVaultStoreParams } from "@latchkey/protocol/schemas";
import { defineRoute } from "../http/route.js";
import { getDataVaultValue, setDataVaultValue } from "../services/data-vault.js";

const TAGS = ["Data vault"];

/**
 * The data vault (issue 33), for server and admin callers: an app stores values it encrypted with a secret
 * only it holds, under a key hash it derived from that secret. Stores are made in the config
 * (`dataVault.stores.<id>`); a store that is not there is DATA_VAULT_STORE_DOES_NOT_EXIST.
 */
export const dataVaultRoutes = [
  defineRoute({
    method: "post",
    path: "/data-vault/stores/:id/set",
    summary: "Store a value in a data vault store",
    description:
      "Stores `encrypted_value` under `hashed_key` in the store, replacing what was there. Both are what the app derived " +
      "from a secret the server never sees; the server seals the value once more at rest.",
    tags: TAGS,
    access: ["server", "admin"],
    request: { params: dataVaultStoreParams, body: dataVaultSetBody },
    response: { description: "Stored.", schema: dataVaultSetResponse },
    errors: [KnownErrors.DataVaultStoreDoesNotExist],
    handler: async (c, { auth, params, body }) => {
      await setDataVaultValue(c.get("deps"), auth.project, params.id, body.hashed_key, body.encrypted_value);
      return { success: true as const };
    },
  }),
  defineRoute({
    method: "post",
    path: "/data-vault/stores/:id/get",
    summary: "Read a value from a data vault store",
    description: "The `encrypted_value` stored under `hashed_key`, as the app sent it.",
    tags: TAGS,
    access: ["server", "admin"],
    request: { params: dataVaultStoreParams, body: dataVaultGetBody },
    response: { description: "The stored value.", schema: dataVaultGetResponse },
    errors: [KnownErrors.DataVaultStoreDoesNotExist, KnownErrors.DataVaultStoreHashedKeyDoesNotExist],
    handler: async (c, { auth, params, body }) => ({
      encrypted_value: await getDataVaultValue(c.get("deps"), auth.project, params.id, body.hashed_key),
    }),
  }),
];
