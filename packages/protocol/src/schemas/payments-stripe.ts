import { z } from "zod";

/** Wire schemas of the payments-stripe routes (issue 32): Stripe Connect setup, account info, widgets, webhooks. */

/** The admin SDK sends `{}` to the setup and account-session routes. */
export const paymentsStripeEmptyBody = z.strictObject({}).optional();

/** `POST /internal/payments/setup`: where to send the admin to onboard the project's connected account. */
export const paymentsSetupResponse = z.strictObject({ url: z.string() });
export type PaymentsSetupResponse = z.infer<typeof paymentsSetupResponse>;

/** `GET /internal/payments/stripe/account-info`: the fields the admin SDK's `stripeAccountInfo` reads. */
export const stripeAccountInfoResponse = z.strictObject({
  account_id: z.string(),
  charges_enabled: z.boolean(),
  details_submitted: z.boolean(),
  payouts_enabled: z.boolean(),
});
export type StripeAccountInfoResponse = z.infer<typeof stripeAccountInfoResponse>;

/** `POST /internal/payments/stripe-widgets/account-session`: for Stripe's embedded Connect components. */
export const stripeAccountSessionResponse = z.strictObject({ client_secret: z.string() });
export type StripeAccountSessionResponse = z.infer<typeof stripeAccountSessionResponse>;

/** `POST /integrations/stripe/webhooks`: the acknowledgement Stripe expects. */
export const stripeWebhookResponse = z.strictObject({ received: z.literal(true) });
