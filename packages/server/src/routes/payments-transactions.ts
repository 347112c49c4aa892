import type { Route } from "../http/route.js";

/** The admin's list of transactions (issue 32). */
export const paymentsTransactionsRoutes: Route[] = [];
