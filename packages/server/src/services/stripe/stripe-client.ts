import type Stripe from "stripe";
import { HTTPException } from "hono/http-exception";
import type { Db } from "../../db/connect.js";
import { STRIPE_MOCK_KEY } from "../../env.js";
import type { AppDeps } from "../deps.js";

/** Whether the server has a platform Stripe key; without one every project's payments run in test mode. */
export function stripeConfigured(deps: Pick<AppDeps, "env">): boolean {
  return deps.env.stripe !== undefined && deps.env.stripe !== null;
}

/**
 * The `stripe` package, loaded on first use (issue 35): where Node loads it module by module (a server run from its
 * sources, each test file's worker) its ~220 modules cost ~0.15 s of CPU, for a server that may never call Stripe
 * (no key, or no payments yet). In the bundle `npm start` runs it is a chunk of its own.
 */
let stripePackage: typeof Stripe | undefined;
async function loadStripe(): Promise<typeof Stripe> {
  stripePackage ??= (await import("stripe")).default;
  return stripePackage;
}

/**
 * The platform's Stripe client (issue 32): the official `stripe` package with LATCHKEY_STRIPE_SECRET_KEY, pointed
 * at LATCHKEY_STRIPE_API_URL when set (a Stripe mock, the tests' stand-in). Each project's calls go to its own
 * connected account through the `stripeAccount` request option. null: the server has no key, and every
 * project's payments run in test mode.
 */
export async function stripeFor(deps: Pick<AppDeps, "env">): Promise<Stripe | null> {
  const settings = deps.env.stripe;
  if (!settings) return null;
  const cacheKey = `${settings.secretKey}\n${settings.apiUrl ?? ""}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const url = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
    const StripeClient = await loadStripe();
    client = new StripeClient(settings.secretKey, {
      ...(url && { host: url.hostname, port: url.port || (url.protocol === "https:" ? 443 : 80), protocol: url.protocol === "https:" ? "https" : "http" }),
      // One retry (with an idempotency key, which Stripe adds) rides out a dropped connection; a request is then
      // answered in at most ~30 s, where Stripe's default of 80 s would outlast the caller's patience.
      maxNetworkRetries: 1,
      timeout: 30_000,
      telemetry: false,
      appInfo: { name: "Latchkey" },
    });
    clients.set(cacheKey, client);
  }
  return client;
}

// One client per key and host: the client holds an HTTP agent with kept-alive connections.
const clients = new Map<string, Stripe>();

/** The project's connected account (POST /internal/payments/setup made it), or null before setup. */
export async function stripeAccountIdOf(db: Db, projectId: string): Promise<string | null> {
  const row = await db.selectFrom("payment_stripe_accounts").select("stripe_account_id").where("project_id", "=", projectId).executeTakeFirst();
  return row?.stripe_account_id ?? null;
}

/**
 * Dev mode with the reference's mock key: webhook events may carry `stack_stripe_mock_data` to shape what the
 * mock's calls answer, as the reference's own test suites do (services/stripe/stripe-webhooks.ts). Never otherwise.
 */
export function isStripeMockMode(deps: Pick<AppDeps, "env">): boolean {
  return deps.env.devMode && deps.env.stripe?.secretKey === STRIPE_MOCK_KEY;
}

/** Stripe could not be reached, failed itself or asked to slow down: worth trying again later. */
export function isStripeUnavailable(error: unknown): boolean {
  // A Stripe error exists only once the package was loaded to make a client.
  const errors = stripePackage?.errors;
  return errors !== undefined && (error instanceof errors.StripeConnectionError || error instanceof errors.StripeAPIError || error instanceof errors.StripeRateLimitError);
}

/** Any error the Stripe client raised (a refusal, or Stripe being unavailable). */
export function isStripeError(error: unknown): error is Stripe.errors.StripeError {
  return stripePackage !== undefined && error instanceof stripePackage.errors.StripeError;
}

/**
 * Runs Stripe calls, turning Stripe being unreachable or failing into a clear answer instead of a 500 with no
 * reason: 503 when it could not be reached (or answered 5xx), 502 when it refused the request. Callers make their
 * Stripe calls before writing rows, so a failure here leaves nothing half-written.
 */
export async function callStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isStripeUnavailable(error)) {
      throw new HTTPException(503, { message: `Stripe could not be reached while trying to ${what}; nothing was changed. Please try again later.` });
    }
    if (isStripeError(error)) {
      throw new HTTPException(502, { message: `Stripe refused to ${what}: ${error.message}` });
    }
    throw error;
  }
}
