import { STRIPE_ACCOUNT_INFO_NOT_FOUND, isKnownError } from "../http/client-errors.js";
import { transactionFromWire, type CustomerType, type Transaction, type WireTransaction } from "../wire/payments.js";
import type { AppContext } from "./app-context.js";

/** The project's connected Stripe account, as Stripe reports it. */
export interface StripeAccountInfo {
  accountId: string;
  chargesEnabled: boolean;
  detailsSubmitted: boolean;
  payoutsEnabled: boolean;
}

export interface TransactionListOptions {
  /** `nextCursor` of the page before. */
  cursor?: string;
  limit?: number;
  type?: Transaction["type"];
  customerType?: CustomerType;
}

export interface AdminPaymentActions {
  /** Creates the project's Stripe account if needed and returns the link where its owner finishes onboarding. */
  setupPayments(): Promise<{ url: string }>;
  /** The connected Stripe account, or null before `setupPayments`. */
  getStripeAccountInfo(): Promise<StripeAccountInfo | null>;
  /** A session for Stripe's embedded dashboard components (Connect embedded components). */
  createStripeWidgetAccountSession(): Promise<{ clientSecret: string }>;
  /** The project's subscriptions, purchases and item quantity changes, newest first. */
  listTransactions(options?: TransactionListOptions): Promise<{ transactions: Transaction[]; nextCursor: string | null }>;
  /** Completes the purchase of a purchase link's code without Stripe, marked as test mode. */
  testModePurchase(options: { fullCode: string; priceId: string; quantity?: number }): Promise<void>;
}

/** `afterPurchase` reloads the app's payments stores (a test purchase changes what the customer holds). */
export function adminPaymentActions(ctx: AppContext, afterPurchase: () => Promise<void>): AdminPaymentActions {
  return {
    setupPayments: () => ctx.call<{ url: string }>({ method: "POST", path: "/internal/payments/setup", body: {}, session: null }),

    async getStripeAccountInfo() {
      try {
        const wire = await ctx.call<{ account_id: string; charges_enabled: boolean; details_submitted: boolean; payouts_enabled: boolean }>({
          method: "GET",
          path: "/internal/payments/stripe/account-info",
          session: null,
        });
        return { accountId: wire.account_id, chargesEnabled: wire.charges_enabled, detailsSubmitted: wire.details_submitted, payoutsEnabled: wire.payouts_enabled };
      } catch (error) {
        if (isKnownError(error, STRIPE_ACCOUNT_INFO_NOT_FOUND)) return null;
        throw error;
      }
    },

    async createStripeWidgetAccountSession() {
      const wire = await ctx.call<{ client_secret: string }>({ method: "POST", path: "/internal/payments/stripe-widgets/account-session", body: {}, session: null });
      return { clientSecret: wire.client_secret };
    },

    async listTransactions(options = {}) {
      const page = await ctx.call<{ transactions: WireTransaction[]; next_cursor: string | null }>({
        method: "GET",
        path: "/internal/payments/transactions",
        session: null,
        query: { cursor: options.cursor, limit: options.limit, type: options.type, customer_type: options.customerType },
      });
      return { transactions: page.transactions.map(transactionFromWire), nextCursor: page.next_cursor };
    },

    async testModePurchase(options) {
      await ctx.call({
        method: "POST",
        path: "/internal/payments/test-mode-purchase-session",
        session: null,
        body: { full_code: options.fullCode, price_id: options.priceId, ...(options.quantity === undefined ? {} : { quantity: options.quantity }) },
      });
      await afterPurchase();
    },
  };
}
