import type { StripeAccountInfo } from "@latchkey/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { readDashboardConfig } from "../../../dashboard-config.js";
import { FailureAlert } from "../../../components/failure-alert.js";
import { QueryState } from "../../../components/query-state.js";
import { useProjectAdmin, useProjectId } from "../../../project-admin.js";
import { paymentsKeys } from "./payments-queries.js";
import { isTestModeRefusal } from "./stripe-test-mode.js";

/**
 * Connecting the project's Stripe account (Stripe Connect): its state as Stripe reports it
 * (`GET /internal/payments/stripe/account-info`), and a button that makes the account if needed and opens
 * Stripe's onboarding (`POST /internal/payments/setup`), which comes back to this page. A server without a
 * Stripe key runs every project in test mode: the card says so and how to go live.
 */
export function StripeSection() {
  const projectId = useProjectId();
  const admin = useProjectAdmin(projectId);
  const id = useId();
  // The server says whether it has a Stripe key in the page it serves; a refusal of setup says so too (an older server).
  const serverTestMode = readDashboardConfig()?.paymentsTestMode === true;
  const account = useQuery({
    queryKey: paymentsKeys.stripeAccount(projectId),
    queryFn: () => admin.getStripeAccountInfo(),
    enabled: !serverTestMode,
    retry: false,
  });
  const setup = useMutation({
    mutationFn: () => admin.setupPayments(),
    // Stripe's onboarding is a page of Stripe's: the owner goes there and Stripe sends them back here.
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const testMode = serverTestMode || isTestModeRefusal(account.error) || isTestModeRefusal(setup.error);

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Stripe</h2>
      {testMode ? (
        <TestModeNotice />
      ) : (
        <QueryState query={account} what="the Stripe account">
          {(info) => (
            <>
              <AccountStatus info={info} />
              <FailureAlert action="open Stripe's onboarding" error={setup.error} />
              {info?.chargesEnabled ? null : (
                <button type="button" onClick={() => setup.mutate()} disabled={setup.isPending || setup.isSuccess}>
                  {setup.isPending || setup.isSuccess ? "Opening Stripe…" : info ? "Continue onboarding" : "Connect Stripe"}
                </button>
              )}
            </>
          )}
        </QueryState>
      )}
    </section>
  );
}

function AccountStatus({ info }: { info: StripeAccountInfo | null }) {
  if (!info)
    return (
      <p>
        <strong>Not set up.</strong> Connect a Stripe account to take payments: Stripe asks for the business's details, then pays out what customers pay.
      </p>
    );
  return (
    <>
      <p>
        <strong>{info.chargesEnabled ? "Charges enabled." : info.detailsSubmitted ? "Waiting for Stripe." : "Onboarding incomplete."}</strong>{" "}
        {info.chargesEnabled
          ? "Customers can pay; purchase links open Stripe's payment form."
          : info.detailsSubmitted
            ? "Stripe has the details and is checking them; charges start once it enables them."
            : "Stripe still needs details about the business before customers can pay."}
      </p>
      <dl className="dashboard-facts">
        <dt>Account</dt>
        <dd>
          <code>{info.accountId}</code>
        </dd>
        <dt>Details submitted</dt>
        <dd>{info.detailsSubmitted ? "Yes" : "No"}</dd>
        <dt>Charges</dt>
        <dd>{info.chargesEnabled ? "Enabled" : "Not yet"}</dd>
        <dt>Payouts</dt>
        <dd>{info.payoutsEnabled ? "Enabled" : "Not yet"}</dd>
      </dl>
    </>
  );
}

function TestModeNotice() {
  return (
    <>
      <p>
        <strong>Test mode.</strong> This server has no Stripe key, so every project takes payments in test mode: purchase links open Latchkey's purchase
        page, which completes purchases without charging anyone, and each is listed as test mode in the transactions. Items, offers and test purchases
        work as they will with Stripe.
      </p>
      <h3>Going live</h3>
      <ol>
        <li>
          Set <code>LATCHKEY_STRIPE_SECRET_KEY</code> on the server to the secret key of your Stripe platform account (with Connect enabled).
        </li>
        <li>
          In Stripe, send webhooks to <code>{`${window.location.origin}/api/v1/integrations/stripe/webhooks`}</code> and set{" "}
          <code>LATCHKEY_STRIPE_WEBHOOK_SECRET</code> to its signing secret.
        </li>
        <li>Restart the server, come back to this tab and connect the project's Stripe account.</li>
      </ol>
    </>
  );
}
