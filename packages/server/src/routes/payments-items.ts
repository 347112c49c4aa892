import type { Route } from "../http/route.js";

/** Item balances, quantity changes and the offers a customer can buy (issue 32). */
export const paymentsItemsRoutes: Route[] = [];
