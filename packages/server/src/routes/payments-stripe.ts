import type { Route } from "../http/route.js";

/** Stripe setup, account info, account sessions and Stripe's webhooks (issue 32). */
export const paymentsStripeRoutes: Route[] = [];
