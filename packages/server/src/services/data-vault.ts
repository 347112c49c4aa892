import { KnownErrors } from "@latchkey/protocol/errors";
import type { Db } from "../db/connect.js";
import type { ProjectRow } from "../db/rows.js";
import type { Env } from "../env.js";
import { hasOwn } from "../config/config-format.js";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import { openVaultValue, rewrapVaultValue, sealVaultValue, vaultContext } from "../crypto/vault-envelope.js";
import { vaultKeyWrapperFor } from "../crypto/vault-key-wrapper.js";

/**
 * The data vault (issue 33): per project and store, values an app encrypted itself, keyed by a hash it derived
 * (neither the key nor the value is ever readable here). Stores are config entries (`dataVault.stores`);
 * rows are sealed again at rest (crypto/vault-envelope.ts).
 */

type VaultDeps = { db: Db; env: Env };

function assertStoreExists(project: ProjectRow, storeId: string): void {
  const config = renderProjectConfig(project.config_override as ConfigObject);
  if (!hasOwn(config.dataVault.stores, storeId)) throw new KnownErrors.DataVaultStoreDoesNotExist(storeId);
}

/** Upserts one value: parallel sets of one key leave one row, the last writer's. */
export async function setDataVaultValue({ db, env }: VaultDeps, project: ProjectRow, storeId: string, hashedKey: string, encryptedValue: string): Promise<void> {
  assertStoreExists(project, storeId);
  const sealed = await sealVaultValue(await vaultKeyWrapperFor(env), vaultContext(project.id, storeId, hashedKey), encryptedValue);
  const columns = { kek_id: sealed.kekId, wrapped_data_key: sealed.wrappedDataKey, sealed_value: sealed.sealedValue };
  await db
    .insertInto("data_vault_entries")
    .values({ project_id: project.id, store_id: storeId, hashed_key: hashedKey, ...columns })
    .onConflict((oc) => oc.columns(["project_id", "store_id", "hashed_key"]).doUpdateSet({ ...columns, updated_at: new Date() }))
    .execute();
}

/**
 * The stored value. A row that does not open (copied from another project or store, or sealed under a secret
 * this server no longer has) reads as absent, never as other bytes.
 */
export async function getDataVaultValue({ db, env, log }: VaultDeps & { log?: { warn: (o: object, m: string) => void } }, project: ProjectRow, storeId: string, hashedKey: string): Promise<string> {
  assertStoreExists(project, storeId);
  const row = await db
    .selectFrom("data_vault_entries")
    .select(["kek_id", "wrapped_data_key", "sealed_value"])
    .where("project_id", "=", project.id)
    .where("store_id", "=", storeId)
    .where("hashed_key", "=", hashedKey)
    .executeTakeFirst();
  const value = row && (await openVaultValue(await vaultKeyWrapperFor(env), vaultContext(project.id, storeId, hashedKey), {
    kekId: row.kek_id,
    wrappedDataKey: row.wrapped_data_key,
    sealedValue: row.sealed_value,
  }));
  if (row && value === undefined) log?.warn({ projectId: project.id, storeId, kekId: row.kek_id }, "A data vault row does not open: copied from elsewhere, or sealed under a server secret this server lacks");
  if (value === undefined) throw new KnownErrors.DataVaultStoreHashedKeyDoesNotExist(storeId, hashedKey);
  return value;
}

export interface RotationResult {
  rewrapped: number;
  /** Rows no key this server has opens (left as they are). */
  unopenable: number;
}

/**
 * `npm run rotate-vault-keys`: wraps every data key still under an older KEK (a previous server secret) under
 * the current one. Only the wrapped data keys change; the sealed values stay. A row a concurrent set replaced
 * meanwhile is left alone (the update checks the wrapping it read).
 */
export async function rotateVaultKeys({ db, env }: VaultDeps, batchSize = 200): Promise<RotationResult> {
  const wrapper = await vaultKeyWrapperFor(env);
  const current = await wrapper.currentKeyId();
  const result: RotationResult = { rewrapped: 0, unopenable: 0 };
  let after: { project_id: string; store_id: string; hashed_key: string } | undefined;
  for (;;) {
    let query = db
      .selectFrom("data_vault_entries")
      .select(["project_id", "store_id", "hashed_key", "kek_id", "wrapped_data_key", "sealed_value"])
      .where("kek_id", "<>", current)
      .orderBy("project_id").orderBy("store_id").orderBy("hashed_key")
      .limit(batchSize);
    if (after) {
      const a = after;
      query = query.where((eb) => eb.or([
        eb("project_id", ">", a.project_id),
        eb.and([eb("project_id", "=", a.project_id), eb("store_id", ">", a.store_id)]),
        eb.and([eb("project_id", "=", a.project_id), eb("store_id", "=", a.store_id), eb("hashed_key", ">", a.hashed_key)]),
      ]));
    }
    const rows = await query.execute();
    for (const row of rows) {
      const context = vaultContext(row.project_id, row.store_id, row.hashed_key);
      const rewrapped = await rewrapVaultValue(wrapper, context, { kekId: row.kek_id, wrappedDataKey: row.wrapped_data_key, sealedValue: row.sealed_value });
      if (!rewrapped) {
        result.unopenable++;
        continue;
      }
      const updated = await db
        .updateTable("data_vault_entries")
        .set({ kek_id: rewrapped.kekId, wrapped_data_key: rewrapped.wrappedDataKey })
        .where("project_id", "=", row.project_id)
        .where("store_id", "=", row.store_id)
        .where("hashed_key", "=", row.hashed_key)
        .where("kek_id", "=", row.kek_id)
        .where("wrapped_data_key", "=", row.wrapped_data_key)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0) result.rewrapped++;
    }
    if (rows.length < batchSize) return result;
    after = rows[rows.length - 1];
  }
}
