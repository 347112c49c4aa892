import type Stripe from "stripe";
import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import type { AppDeps } from "../deps.js";
import { callStripe, stripeAccountIdOf, stripeFor } from "./stripe-client.js";

/**
 * A project's Stripe Connect account (issue 32): made once by setup, onboarded through Stripe's hosted account
 * links, read for the dashboard's status and opened to Stripe's embedded components through account sessions.
 */

/** Without a platform key there is no Stripe to connect to: said plainly (400), never a 500. */
export const NO_STRIPE_KEY_MESSAGE =
  "Stripe is not configured on this server (LATCHKEY_STRIPE_SECRET_KEY is not set), so every project's payments run in test mode. Set the key to connect a Stripe account.";

async function requireStripe(deps: Pick<AppDeps, "env">): Promise<Stripe> {
  const stripe = await stripeFor(deps);
  if (!stripe) throw new HTTPException(400, { message: NO_STRIPE_KEY_MESSAGE });
  return stripe;
}

/** The dashboard page onboarding returns to (and restarts from when its link expired). */
function paymentsPageUrl(deps: Pick<AppDeps, "env">, projectId: string): string {
  return `${deps.env.publicUrl}/dashboard/projects/${encodeURIComponent(projectId)}/payments`;
}

/**
 * The onboarding link for the project's connected account, made on the first call. The account is created
 * under an idempotency key and stored only once Stripe has answered, so parallel or retried setups end with
 * one account, and an outage leaves no row behind.
 */
export async function setupPayments(deps: Pick<AppDeps, "env" | "db">, projectId: string): Promise<{ url: string }> {
  const stripe = await requireStripe(deps);
  let accountId = await stripeAccountIdOf(deps.db, projectId);
  if (!accountId) {
    const account = await callStripe("create the connected account", () =>
      stripe.accounts.create(
        {
          controller: { stripe_dashboard: { type: "none" } },
          capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
          country: "US",
          metadata: { projectId, tenancyId: projectId },
        },
        { idempotencyKey: `latchkey-account-${projectId}` },
      ),
    );
    await deps.db.insertInto("payment_stripe_accounts").values({ project_id: projectId, stripe_account_id: account.id }).onConflict((oc) => oc.column("project_id").doNothing()).execute();
    accountId = (await stripeAccountIdOf(deps.db, projectId))!;
  }
  const returnUrl = paymentsPageUrl(deps, projectId);
  const link = await callStripe("create the onboarding link", () =>
    stripe.accountLinks.create({ account: accountId, refresh_url: returnUrl, return_url: returnUrl, type: "account_onboarding" }),
  );
  return { url: link.url };
}

async function connectedAccount(deps: Pick<AppDeps, "env" | "db">, projectId: string): Promise<{ stripe: Stripe | null; accountId: string }> {
  const accountId = await stripeAccountIdOf(deps.db, projectId);
  if (!accountId) throw new KnownErrors.StripeAccountInfoNotFound();
  return { stripe: await stripeFor(deps), accountId };
}

export async function stripeAccountInfo(deps: Pick<AppDeps, "env" | "db">, projectId: string) {
  const { stripe, accountId } = await connectedAccount(deps, projectId);
  // An account made while the server had a key, which it no longer has: nothing can be said about it.
  if (!stripe) throw new KnownErrors.StripeAccountInfoNotFound();
  const account = await callStripe("read the connected account", () => stripe.accounts.retrieve(accountId));
  return {
    account_id: account.id,
    charges_enabled: account.charges_enabled === true,
    details_submitted: account.details_submitted === true,
    payouts_enabled: account.payouts_enabled === true,
  };
}

/** A session for Stripe's embedded Connect components (payments, payouts, balances, account management). */
export async function createStripeAccountSession(deps: Pick<AppDeps, "env" | "db">, projectId: string): Promise<{ client_secret: string }> {
  await requireStripe(deps);
  const { stripe, accountId } = await connectedAccount(deps, projectId);
  const session = await callStripe("create the account session", () =>
    stripe!.accountSessions.create({
      account: accountId,
      components: {
        payments: { enabled: true, features: { refund_management: true, dispute_management: true, capture_payments: true } },
        payouts: { enabled: true, features: { instant_payouts: true, standard_payouts: true, edit_payout_schedule: true } },
        balances: { enabled: true, features: { instant_payouts: true, standard_payouts: true, edit_payout_schedule: true } },
        account_management: { enabled: true },
        notification_banner: { enabled: true },
        account_onboarding: { enabled: true },
      },
    }),
  );
  return { client_secret: session.client_secret };
}
