import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import {
  paymentsSetupResponse,
  paymentsStripeEmptyBody,
  stripeAccountInfoResponse,
  stripeAccountSessionResponse,
  stripeWebhookResponse,
} from "@latchkey/protocol/schemas";
import type Stripe from "stripe";
import { rawBodyOf } from "../http/body.js";
import { defineRoute, type Route } from "../http/route.js";
import { createStripeAccountSession, setupPayments, stripeAccountInfo } from "../services/stripe/stripe-accounts.js";
import { isStripeError, isStripeUnavailable, stripeFor } from "../services/stripe/stripe-client.js";
import { handleStripeEvent } from "../services/stripe/stripe-webhooks.js";

const NO_KEY = "Without LATCHKEY_STRIPE_SECRET_KEY on the server this answers 400 (payments run in test mode).";
const OUTAGE = "When Stripe cannot be reached it answers 503 and changes nothing.";

/** Stripe setup, account info, account sessions and Stripe's webhooks (issue 32). */
export const paymentsStripeRoutes: Route[] = [
  defineRoute({
    method: "post",
    path: "/internal/payments/setup",
    summary: "Start or continue the project's Stripe onboarding",
    description: `Creates the project's Stripe Connect account on the first call and answers a Stripe onboarding link, which returns to the dashboard's payments page. ${NO_KEY} ${OUTAGE}`,
    tags: ["Payments"],
    access: ["admin"],
    request: { body: paymentsStripeEmptyBody },
    response: { description: "The onboarding link.", schema: paymentsSetupResponse },
    handler: (c, { auth }) => setupPayments(c.get("deps"), auth.project.id),
  }),
  defineRoute({
    method: "get",
    path: "/internal/payments/stripe/account-info",
    summary: "The project's Stripe account status",
    description: `STRIPE_ACCOUNT_INFO_NOT_FOUND until setup made an account (and while the server has no Stripe key). ${OUTAGE}`,
    tags: ["Payments"],
    access: ["admin"],
    response: { description: "The connected account's status.", schema: stripeAccountInfoResponse },
    errors: [KnownErrors.StripeAccountInfoNotFound],
    handler: (c, { auth }) => stripeAccountInfo(c.get("deps"), auth.project.id),
  }),
  defineRoute({
    method: "post",
    path: "/internal/payments/stripe-widgets/account-session",
    summary: "A session for Stripe's embedded Connect components",
    description: `For the dashboard's Stripe widgets. STRIPE_ACCOUNT_INFO_NOT_FOUND before setup. ${NO_KEY} ${OUTAGE}`,
    tags: ["Payments"],
    access: ["admin"],
    request: { body: paymentsStripeEmptyBody },
    response: { description: "The account session's client secret.", schema: stripeAccountSessionResponse },
    errors: [KnownErrors.StripeAccountInfoNotFound],
    handler: (c, { auth }) => createStripeAccountSession(c.get("deps"), auth.project.id),
  }),
  defineRoute({
    method: "post",
    path: "/integrations/stripe/webhooks",
    summary: "Stripe's webhook events",
    description:
      "For Stripe: events signed with LATCHKEY_STRIPE_WEBHOOK_SECRET (400 `Invalid stripe-signature header` otherwise). A succeeded one-time " +
      "payment records its purchase once; subscription, invoice, checkout and payment-intent events re-read the customer's subscriptions " +
      "from Stripe. Redeliveries change nothing. 503 while the server has no Stripe key or webhook secret, or Stripe cannot be reached " +
      "(Stripe then delivers the event again later).",
    tags: ["Payments"],
    access: "public",
    response: { description: "The event was handled.", schema: stripeWebhookResponse },
    handler: async (c) => {
      const signature = c.req.header("stripe-signature");
      // The reference's request schema requires the header: a missing one is a validation error.
      if (signature === undefined) {
        throw new KnownErrors.SchemaError(`Request validation failed on ${c.req.method} ${new URL(c.req.url).pathname}:\n  - headers.stripe-signature must be defined`);
      }
      const deps = c.get("deps");
      const stripe = await stripeFor(deps);
      const secret = deps.env.stripe?.webhookSecret;
      if (!stripe || !secret) {
        throw new HTTPException(503, { message: "Stripe webhooks are not configured on this server: set LATCHKEY_STRIPE_SECRET_KEY and LATCHKEY_STRIPE_WEBHOOK_SECRET." });
      }
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(Buffer.from(rawBodyOf(c.req.raw) ?? new ArrayBuffer(0)), signature, secret);
      } catch {
        throw new HTTPException(400, { message: "Invalid stripe-signature header" });
      }
      try {
        await handleStripeEvent(deps, stripe, event);
      } catch (error) {
        if (isStripeUnavailable(error)) {
          // Stripe redelivers an event answered 5xx, so nothing is lost while it cannot be reached.
          throw new HTTPException(503, { message: `Stripe could not be reached while handling ${event.type}; it will deliver the event again.` });
        }
        if (!isStripeError(error)) throw error;
        // Stripe refused a read (an account or customer since deleted): a redelivery would be refused alike.
        deps.log.warn({ err: error, type: event.type, eventId: event.id }, "Stripe event could not be handled: Stripe refused a read");
      }
      return { received: true as const };
    },
  }),
];
