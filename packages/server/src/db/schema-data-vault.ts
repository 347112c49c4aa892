import type { ColumnType } from "kysely";

/** Table types of the data vault (migrations/0043_data_vault.sql); part of `Database` in schema.ts. */

export interface DataVaultEntriesTable {
  project_id: string;
  store_id: string;
  hashed_key: string;
  kek_id: string;
  wrapped_data_key: Uint8Array;
  sealed_value: Uint8Array;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface DataVaultTables {
  data_vault_entries: DataVaultEntriesTable;
}
