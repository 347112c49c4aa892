import { transactionsQuery, transactionsResponse } from "@latchkey/protocol/schemas";
import { defineRoute, type Route } from "../http/route.js";
import { listTransactions } from "../services/payments-transactions.js";

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

/** As the reference reads `limit`: an integer clamped to 1…200, 50 when left out or not a number. */
function limitOf(raw: string | undefined): number {
  const parsed = raw === undefined ? NaN : Number.parseInt(raw, 10);
  return Math.max(1, Math.min(MAX_LIMIT, Number.isFinite(parsed) ? parsed : DEFAULT_LIMIT));
}

/** The admin's list of transactions (issue 32). */
export const paymentsTransactionsRoutes: Route[] = [
  defineRoute({
    method: "get",
    path: "/internal/payments/transactions",
    summary: "List payment transactions",
    description:
      `Subscriptions, one-time purchases and item quantity changes of the project, newest first, optionally of one type or customer type. \`limit\` is 1 to ${MAX_LIMIT} (${DEFAULT_LIMIT} when left out); pass \`next_cursor\` as \`cursor\` for the next page.`,
    tags: ["Payments"],
    access: ["admin"],
    request: { query: transactionsQuery },
    response: { description: "A page of transactions and the cursor of the next one (null on the last page).", schema: transactionsResponse },
    handler: async (c, { auth, query }) =>
      listTransactions(c.get("deps").db, auth.project.id, {
        cursor: query.cursor,
        limit: limitOf(query.limit),
        type: query.type,
        customerType: query.customer_type,
      }),
  }),
];
