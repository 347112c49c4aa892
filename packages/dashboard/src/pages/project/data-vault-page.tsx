import { QueryState } from "../../components/query-state.js";
import { DataVaultStoresCard, type DataVaultStores } from "./data-vault/data-vault-stores-card.js";
import { useProjectConfig } from "./project-config/project-config-queries.js";

/**
 * The project's data vault (issue 33): its stores, made, renamed and removed through the config override
 * (`dataVault.stores.<id>`). What apps keep in them is encrypted by the apps and never shown here.
 */
export function DataVaultPage() {
  const config = useProjectConfig();
  return (
    <QueryState query={config} what="the data vault's stores">
      {(data) => <DataVaultStoresCard stores={(data as { dataVault?: { stores?: DataVaultStores } }).dataVault?.stores ?? {}} />}
    </QueryState>
  );
}
