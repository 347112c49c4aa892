import { KnownErrors } from "@latchkey/protocol/errors";
import { transactionsQuery, transactionsResponse } from "@latchkey/protocol/schemas";
import { defineRoute, type Route } from "../http/route.js";
import { listTransactions } from "../services/payments-transactions.js";

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

function limitOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  const limit = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) throw new KnownErrors.SchemaError(`limit must be an integer between 1 and ${MAX_LIMIT}`);
  return limit;
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
