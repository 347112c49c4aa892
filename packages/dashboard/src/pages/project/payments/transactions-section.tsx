import type { Transaction } from "@latchkey/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useId, useState } from "react";
import { SimpleTable } from "../../../components/simple-table.js";
import { errorMessage } from "../../../error-message.js";
import { useProjectAdmin, useProjectId } from "../../../project-admin.js";
import { paymentsKeys } from "./payments-queries.js";
import { CUSTOMER_TYPES, CUSTOMER_TYPE_LABELS, formatAmounts, formatInterval, type CustomerType } from "./payments-rules.js";

const TYPE_LABELS: Record<Transaction["type"], string> = {
  subscription: "Subscription",
  one_time: "One-time purchase",
  item_quantity_change: "Item quantity change",
};
const PAGE_SIZES = [10, 25, 50] as const;

interface Filters {
  type: Transaction["type"] | "";
  customerType: CustomerType | "";
  limit: number;
}

/**
 * The project's transactions, newest first (`GET /internal/payments/transactions`): subscriptions, one-time
 * purchases and item quantity changes, filtered by kind and customer type. The server pages by cursor (each
 * answer names the next page's), so the way back is a stack of the cursors of the pages seen; a new filter
 * starts again at the first page.
 */
export function TransactionsSection() {
  const projectId = useProjectId();
  const admin = useProjectAdmin(projectId);
  const id = useId();
  const [filters, setFilters] = useState<Filters>({ type: "", customerType: "", limit: 25 });
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const options = { limit: filters.limit, ...(cursor && { cursor }), ...(filters.type && { type: filters.type }), ...(filters.customerType && { customerType: filters.customerType }) };
  const pageNumber = cursors.length;
  const page = useQuery({
    queryKey: paymentsKeys.transactions(projectId, options),
    // Each answer carries the number of its page: while the next page loads the last one stays on screen
    // (keepPreviousData), and the table's caption must name the page whose rows it shows.
    queryFn: async () => ({ ...(await admin.listTransactions(options)), pageNumber }),
    placeholderData: keepPreviousData,
  });
  const filter = (change: Partial<Filters>) => {
    setFilters({ ...filters, ...change });
    setCursors([undefined]);
  };
  const nextCursor = page.data?.nextCursor ?? null;

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Transactions</h2>
      <div className="payments-filters">
        <div className="dashboard-field">
          <label htmlFor={`${id}-type`}>Kind</label>
          <select id={`${id}-type`} value={filters.type} onChange={(event) => filter({ type: event.target.value as Filters["type"] })}>
            <option value="">All kinds</option>
            {Object.entries(TYPE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="dashboard-field">
          <label htmlFor={`${id}-customer-type`}>Customers</label>
          <select id={`${id}-customer-type`} value={filters.customerType} onChange={(event) => filter({ customerType: event.target.value as Filters["customerType"] })}>
            <option value="">All customers</option>
            {CUSTOMER_TYPES.map((type) => (
              <option key={type} value={type}>
                {CUSTOMER_TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        </div>
        <div className="dashboard-field">
          <label htmlFor={`${id}-limit`}>Per page</label>
          <select id={`${id}-limit`} value={filters.limit} onChange={(event) => filter({ limit: Number(event.target.value) })}>
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="dashboard-secondary" onClick={() => void page.refetch()} disabled={page.isFetching}>
          {page.isFetching ? "Refreshing…" : "Refresh"}
        </button>
      </div>
      {page.isPending ? (
        <p role="status">Loading the transactions…</p>
      ) : page.isError && !page.data ? (
        <p role="alert" className="dashboard-error">
          Could not load the transactions: {errorMessage(page.error)}{" "}
          <button type="button" onClick={() => void page.refetch()}>
            Try again
          </button>
        </p>
      ) : page.data.transactions.length === 0 && pageNumber === 1 ? (
        <p role="status">{filters.type || filters.customerType ? "No transactions match these filters." : "No transactions yet."}</p>
      ) : (
        <>
          <SimpleTable
            columns={["Date", "Kind", "Customer", "What", "Quantity", "Price", "Status"]}
            caption={`Transactions, page ${page.data.pageNumber}`}
            region={`Transactions, page ${page.data.pageNumber}`}
          >
            {page.data.transactions.map((transaction) => (
              <TransactionRow key={`${transaction.type}-${transaction.id}`} projectId={projectId} transaction={transaction} />
            ))}
          </SimpleTable>
          <nav className="payments-pager" aria-label="Pages of transactions">
            <button type="button" className="dashboard-secondary" disabled={pageNumber === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
              Previous page
            </button>
            <span role="status">
              Page {pageNumber}
              {page.isFetching ? " (loading…)" : ""}
            </span>
            <button
              type="button"
              className="dashboard-secondary"
              disabled={nextCursor === null || page.isPlaceholderData}
              onClick={() => setCursors([...cursors, nextCursor ?? undefined])}
            >
              Next page
            </button>
          </nav>
        </>
      )}
    </section>
  );
}

function TransactionRow({ projectId, transaction }: { projectId: string; transaction: Transaction }) {
  const { price } = transaction;
  return (
    <tr>
      <td className="payments-nowrap">
        <time dateTime={transaction.createdAt.toISOString()}>{transaction.createdAt.toLocaleString()}</time>
      </td>
      <td>
        {TYPE_LABELS[transaction.type]}
        {transaction.testMode ? (
          <>
            {" "}
            <span className="payments-badge">Test mode</span>
          </>
        ) : null}
      </td>
      <td>
        <CustomerCell projectId={projectId} transaction={transaction} />
      </td>
      <td>
        {transaction.type === "item_quantity_change" ? (
          <>
            Item <code>{transaction.itemId}</code>
            {transaction.description ? <div className="dashboard-muted">{transaction.description}</div> : null}
            {transaction.expiresAt ? <div className="dashboard-muted">Expires {transaction.expiresAt.toLocaleString()}</div> : null}
          </>
        ) : (
          (transaction.offerDisplayName ?? <span className="dashboard-muted">(inline offer)</span>)
        )}
      </td>
      <td>{transaction.type === "item_quantity_change" && transaction.quantity > 0 ? `+${transaction.quantity}` : transaction.quantity}</td>
      <td>{price ? `${formatAmounts(price.amounts)}${price.interval ? ` every ${formatInterval(price.interval)}` : ""}` : ""}</td>
      <td>{transaction.status ?? ""}</td>
    </tr>
  );
}

/** A user or team customer links to their page; a custom customer is the app's own id. */
function CustomerCell({ projectId, transaction: { customerType, customerId } }: { projectId: string; transaction: Transaction }) {
  const id = <code>{customerId}</code>;
  if (customerType === "user")
    return (
      <>
        user{" "}
        <Link to="/projects/$projectId/users/$userId" params={{ projectId, userId: customerId }}>
          {id}
        </Link>
      </>
    );
  if (customerType === "team")
    return (
      <>
        team{" "}
        <Link to="/projects/$projectId/teams/$teamId" params={{ projectId, teamId: customerId }}>
          {id}
        </Link>
      </>
    );
  return <>custom {id}</>;
}
