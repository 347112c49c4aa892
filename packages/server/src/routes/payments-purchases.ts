import { KnownErrors } from "@latchkey/protocol/errors";
import {
  createPurchaseUrlBody,
  createPurchaseUrlResponse,
  emptyPurchaseResponse,
  fullCodeBody,
  purchaseSessionBody,
  purchaseSessionResponse,
  validatePurchaseCodeResponse,
} from "@latchkey/protocol/schemas";
import { HTTPException } from "hono/http-exception";
import { ANY_ACCESS, VERIFICATION_CODE_ERRORS, defineRoute, type Route } from "../http/route.js";
import {
  NOT_TEST_MODE_SERVER,
  completeTestModePurchase,
  createPurchaseUrl,
  describePurchaseCode,
  startPurchaseSession,
} from "../services/payments-purchases.js";
import { stripeConfigured } from "../services/stripe/stripe-client.js";

const TAGS = ["Payments"];

/**
 * Purchase URLs, purchase codes, purchase sessions and test-mode purchases (issue 32). The code routes are
 * public: the purchase page calls them with nothing but the code, which is the credential (as the reference's).
 */
export const paymentsPurchasesRoutes: Route[] = [
  defineRoute({
    method: "post",
    path: "/payments/purchases/create-purchase-url",
    summary: "Create a purchase URL",
    description:
      "A link to this server's purchase page for one customer and one offer (`offer_id`, or an inline offer from a server as `inline_offer` or `offer_inline`), " +
      "holding a single-use code valid for 24 hours. A client may buy only for its own user or its teams, and only offers that are not server-only. " +
      "`return_url` (Latchkey addition) is where the page's done link leads; it must be under a trusted domain. " +
      "A server with a Stripe key answers 400 until the project has connected Stripe; without a key, links open the page in test mode.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { body: createPurchaseUrlBody },
    response: { description: "The purchase page's URL.", schema: createPurchaseUrlResponse },
    errors: [
      KnownErrors.OfferDoesNotExist,
      KnownErrors.OfferCustomerTypeDoesNotMatch,
      KnownErrors.UserNotFound,
      KnownErrors.TeamNotFound,
      KnownErrors.UserAuthenticationRequired,
      KnownErrors.RedirectUrlNotWhitelisted,
    ],
    handler: async (c, { auth, body }) => ({ url: await createPurchaseUrl(c.get("deps"), auth, body) }),
  }),
  defineRoute({
    method: "post",
    path: "/payments/purchases/validate-code",
    summary: "Read a purchase code",
    description:
      "The offer behind a purchase code (its purchasable prices), whether the customer already holds it (non-stackable) and which subscriptions of its group " +
      "a purchase would replace. `test_mode` (Latchkey addition): the server has no Stripe key, so the purchase is completed with complete-test-mode-purchase. " +
      "`stripe_account_id` is null in test mode.",
    tags: TAGS,
    access: "public",
    request: { body: fullCodeBody },
    response: { description: "The offer and the customer's standing.", schema: validatePurchaseCodeResponse },
    errors: VERIFICATION_CODE_ERRORS,
    handler: async (c, { body }) => describePurchaseCode(c.get("deps"), body.full_code),
  }),
  defineRoute({
    method: "post",
    path: "/payments/purchases/purchase-session",
    summary: "Start a purchase at Stripe",
    description:
      "Uses the purchase code up and starts the purchase at Stripe: a subscription for a price with an interval, a payment intent otherwise; the client secret " +
      "is what Stripe's Payment Element confirms (\"\" when nothing is due now). A plan of a group in which Stripe already bills the customer a plan switches that " +
      "subscription in place (new price and offer, Stripe's default proration), as the reference does. Refused (400) for a price not on the offer, a quantity above 1 of a non-stackable offer, an offer already held, " +
      "an add-on without its base offer, or a one-time price while a subscription of the group runs. A server without a Stripe key answers 400 " +
      "(its purchases run in test mode: complete-test-mode-purchase). If Stripe cannot be reached the code stays usable.",
    tags: TAGS,
    access: "public",
    request: { body: purchaseSessionBody },
    response: { description: "The client secret to confirm with Stripe.js.", schema: purchaseSessionResponse },
    errors: VERIFICATION_CODE_ERRORS,
    handler: async (c, { body }) => startPurchaseSession(c.get("deps"), body),
  }),
  defineRoute({
    method: "post",
    path: "/payments/purchases/complete-test-mode-purchase",
    summary: "Complete a test-mode purchase (Latchkey addition)",
    description:
      "What the purchase page calls on a server without a Stripe key: completes the purchase without payment, marked test mode (a one-time purchase, or a " +
      "subscription active for one interval that replaces the customer's subscription in the same group). The code is the credential and is used up. " +
      "Refused (400) on a server with a Stripe key, and for the same reasons as purchase-session.",
    tags: TAGS,
    access: "public",
    request: { body: purchaseSessionBody },
    response: { description: "Done.", schema: emptyPurchaseResponse },
    errors: VERIFICATION_CODE_ERRORS,
    handler: async (c, { body }) => {
      const deps = c.get("deps");
      if (stripeConfigured(deps)) throw new HTTPException(400, { message: NOT_TEST_MODE_SERVER });
      await completeTestModePurchase(deps, body);
      return {};
    },
  }),
  defineRoute({
    method: "post",
    path: "/internal/payments/test-mode-purchase-session",
    summary: "Complete a purchase in test mode",
    description:
      "Completes the purchase of a code of this project without Stripe, marked test mode, with any of the offer's prices (server-only ones too): a one-time " +
      "purchase, or a subscription active for one interval that cancels the customer's subscription in the same group.",
    tags: TAGS,
    access: ["admin"],
    request: { body: purchaseSessionBody },
    response: { description: "Done.", schema: emptyPurchaseResponse },
    errors: VERIFICATION_CODE_ERRORS,
    handler: async (c, { auth, body }) => {
      await completeTestModePurchase(c.get("deps"), body, auth.project.id);
      return {};
    },
  }),
];
