import { QueryState } from "../../../components/query-state.js";
import { useProjectConfig } from "../project-config/project-config-queries.js";
import { CatalogEntriesCard } from "./catalog-entries-card.js";
import { OffersCard } from "./offers-card.js";
import { paymentsConfigOf } from "./payments-config.js";

/**
 * What the project sells, from its config: groups, items and offers with their prices. Each card writes its
 * own keys of the config override; all of them read the one config query, which every save refreshes.
 */
export function CatalogSection() {
  const config = useProjectConfig();
  return (
    <QueryState query={config} what="the payments configuration">
      {(loaded) => {
        const payments = paymentsConfigOf(loaded);
        return (
          <div className="payments-stack">
            <CatalogEntriesCard kind="items" payments={payments} />
            <CatalogEntriesCard kind="groups" payments={payments} />
            <OffersCard payments={payments} />
          </div>
        );
      }}
    </QueryState>
  );
}
