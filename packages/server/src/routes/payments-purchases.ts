import type { Route } from "../http/route.js";

/** Purchase URLs, purchase codes, purchase sessions and test-mode purchases (issue 32). */
export const paymentsPurchasesRoutes: Route[] = [];
