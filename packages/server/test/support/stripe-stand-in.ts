import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import Stripe from "stripe";

/**
 * A Stripe stand-in for the payments tests (issue 32): there is no Stripe on these machines, so the server's
 * real `stripe` client talks to this small stateful HTTP server instead (LATCHKEY_STRIPE_API_URL). It speaks
 * the subset of Stripe's API the server uses, in Stripe's documented shapes: form-encoded bodies with nested
 * `metadata[x]` and indexed `expand[0]`, the `Stripe-Account` header selecting a connected account (whose
 * objects no other account sees), idempotency keys, ids such as acct_…, cus_…, sub_…, pi_… and client
 * secrets. Tests move its state as Stripe would (a payment succeeding, a subscription cancelled) and send
 * the server events signed as Stripe signs them.
 */

type Obj = Record<string, any>;

export interface StripeStandIn {
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Every request received: method, path, connected account, parsed body or query. */
  requests: { method: string; path: string; account: string | null; params: Obj }[];
  accounts: Map<string, Obj>;
  /** Objects of connected accounts by id (customers, products, subscriptions, invoices, payment intents). */
  objects: Map<string, Obj & { account: string }>;
  /** What the payment intent behind a client secret is, as the Payment Element would find it. */
  paymentIntentOfSecret(clientSecret: string): Obj & { account: string };
  /** The payment intent is paid: it succeeds, and a subscription it started becomes active for one period. */
  succeedPaymentIntent(id: string): Obj;
  /** Changes a subscription as Stripe would (status, cancel_at_period_end, period) and answers it. */
  updateSubscription(id: string, change: Obj): Obj;
  /** Onboarding finished: the account can take charges and payouts. */
  completeOnboarding(accountId: string): void;
  /** Sends the server a webhook event signed with `webhookSecret` (or another secret) and answers its response. */
  sendEvent(serverUrl: string, event: { type: string; account?: string; object: Obj; id?: string }, options?: { secret?: string }): Promise<Response>;
  /** Stops answering (an outage); `start` listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;
const now = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=v` pairs as nested objects and arrays, as Stripe reads its form encoding. */
export function parseStripeForm(text: string): Obj {
  const root: Obj = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, "").split("[");
    let node: Obj = root;
    path.forEach((segment, i) => {
      if (i === path.length - 1) node[segment] = value;
      else node = node[segment] ??= {};
    });
  }
  const arrays = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    const entries = Object.entries(value as Obj).map(([k, v]) => [k, arrays(v)] as const);
    const indexed = entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k));
    return indexed ? entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v) : Object.fromEntries(entries);
  };
  return arrays(root) as Obj;
}

class StripeError extends Error {
  constructor(readonly status: number, message: string, readonly code = "resource_missing") {
    super(message);
  }
}

const PERIOD_SECONDS = { day: 86_400, week: 604_800, month: 2_592_000, year: 31_536_000 } as const;

export async function startStripeStandIn(options: { secretKey?: string; webhookSecret?: string } = {}): Promise<StripeStandIn> {
  const secretKey = options.secretKey ?? "sk_test_latchkey_stand_in";
  const webhookSecret = options.webhookSecret ?? "whsec_latchkey_stand_in";
  const accounts = new Map<string, Obj>();
  const objects = new Map<string, Obj & { account: string }>();
  const idempotent = new Map<string, Obj>();
  const requests: StripeStandIn["requests"] = [];
  let server: Server | undefined;
  let port = 0;

  const owned = (account: string | null, objectId: string, object: string): Obj & { account: string } => {
    const found = objects.get(objectId);
    if (!found || found.account !== account || found.object !== object) throw new StripeError(404, `No such ${object}: '${objectId}'`);
    return found;
  };
  const connected = (account: string | null): string => {
    if (!account) throw new StripeError(400, "This call needs a connected account (Stripe-Account header) in the stand-in", "parameter_missing");
    if (!accounts.has(account)) throw new StripeError(403, `The provided key does not have access to account '${account}'`, "account_invalid");
    return account;
  };
  const put = <T extends Obj>(account: string, object: T) => {
    objects.set(object.id, { ...object, account });
    return objects.get(object.id)!;
  };
  const publicView = (object: Obj) => {
    const { account: _account, ...rest } = object;
    return rest;
  };
  const subscriptionView = (sub: Obj, expand: string[]) => {
    const view = publicView(sub);
    if (expand.some((e) => e.startsWith("latest_invoice"))) {
      const invoice = publicView(objects.get(sub.latest_invoice)!);
      if (!expand.includes("latest_invoice.confirmation_secret")) delete invoice.confirmation_secret;
      view.latest_invoice = invoice;
    }
    return view;
  };

  /**
   * `subscriptions.update` as the server uses it: the item (by its id) gets a new price and quantity, metadata
   * merges ("" deletes a key), and proration is Stripe's default (create_prorations): with the same interval the
   * credit and charge wait for the next invoice (no invoice now); with another interval the billing cycle starts
   * again now and an invoice of the new amount less the unused time's credit is made now, left open for the
   * buyer with `payment_behavior=default_incomplete` (the subscription past_due until it is paid).
   */
  function updateSubscription(account: string | null, subId: string, p: Obj): Obj {
    const sub = owned(connected(account), subId, "subscription");
    const metadata: Obj = { ...sub.metadata };
    for (const [key, value] of Object.entries((p.metadata ?? {}) as Obj)) {
      if (value === "") delete metadata[key];
      else metadata[key] = value;
    }
    sub.metadata = metadata;
    const change = p.items?.[0];
    if (!change) return sub;
    const item = sub.items.data[0];
    if (change.id !== item.id) throw new StripeError(400, `Invalid subscription item: ${change.id}`, "parameter_invalid");
    const priceData = change.price_data;
    if (!priceData?.recurring?.interval || !priceData.product) throw new StripeError(400, "Missing required param: items[0][price_data]", "parameter_missing");
    owned(account, priceData.product, "product");
    const before = { amount: item.price.unit_amount * item.quantity, recurring: item.price.recurring, start: item.current_period_start, end: item.current_period_end };
    const quantity = Number(change.quantity ?? item.quantity);
    const unitAmount = Number(priceData.unit_amount);
    item.price = { id: id("price"), object: "price", currency: priceData.currency, unit_amount: unitAmount, product: priceData.product, recurring: priceData.recurring };
    item.quantity = quantity;
    const sameInterval = before.recurring.interval === priceData.recurring.interval && Number(before.recurring.interval_count ?? 1) === Number(priceData.recurring.interval_count ?? 1);
    if (sameInterval || p.proration_behavior === "none") return sub;
    const start = now();
    // The unused share of what was paid for the period, in whole minor units (integers: no float touches money).
    const unused = before.end > start ? Math.floor((before.amount * (before.end - start)) / Math.max(1, before.end - before.start)) : 0;
    const amountDue = Math.max(0, unitAmount * quantity - unused);
    item.current_period_start = start;
    item.current_period_end = start + PERIOD_SECONDS[priceData.recurring.interval as keyof typeof PERIOD_SECONDS] * Number(priceData.recurring.interval_count ?? 1);
    let confirmation: Obj | null = null;
    let paymentIntent: string | null = null;
    if (amountDue > 0) {
      const pi = put(account!, { id: id("pi"), object: "payment_intent", amount: amountDue, currency: priceData.currency, customer: sub.customer, status: "requires_payment_method", metadata: {}, created: start, livemode: false, subscription: subId });
      pi.client_secret = `${pi.id}_secret_${randomBytes(12).toString("hex")}`;
      paymentIntent = pi.id;
      confirmation = { client_secret: pi.client_secret, type: "payment_intent" };
      if (p.payment_behavior === "default_incomplete") sub.status = "past_due";
    }
    const invoice = put(account!, { id: id("in"), object: "invoice", customer: sub.customer, subscription: subId, amount_due: amountDue, currency: priceData.currency, status: amountDue > 0 ? "open" : "paid", confirmation_secret: confirmation, payment_intent_id: paymentIntent, created: start });
    sub.latest_invoice = invoice.id;
    return sub;
  }

  function route(method: string, path: string, account: string | null, p: Obj): Obj {
    const expand: string[] = p.expand ?? [];
    let m: RegExpMatchArray | null;
    if (method === "POST" && path === "/v1/accounts") {
      const account = { id: id("acct"), object: "account", type: "custom", country: p.country ?? "US", controller: p.controller ?? {}, capabilities: p.capabilities ?? {}, metadata: p.metadata ?? {}, charges_enabled: false, details_submitted: false, payouts_enabled: false, created: now() };
      accounts.set(account.id, account);
      return account;
    }
    if (method === "GET" && (m = path.match(/^\/v1\/accounts\/([^/]+)$/))) {
      const found = accounts.get(m[1]!);
      if (!found) throw new StripeError(404, `No such account: '${m[1]}'`);
      return found;
    }
    if (method === "POST" && path === "/v1/account_links") {
      if (!accounts.has(p.account)) throw new StripeError(404, `No such account: '${p.account}'`);
      return { object: "account_link", created: now(), expires_at: now() + 300, url: `http://127.0.0.1:${port}/setup/${p.account}?return_url=${encodeURIComponent(p.return_url)}&refresh_url=${encodeURIComponent(p.refresh_url)}` };
    }
    if (method === "POST" && path === "/v1/account_sessions") {
      if (!accounts.has(p.account)) throw new StripeError(404, `No such account: '${p.account}'`);
      return { object: "account_session", account: p.account, client_secret: `accs_secret__${randomBytes(16).toString("hex")}`, components: p.components ?? {}, expires_at: now() + 1800, livemode: false };
    }
    if (method === "POST" && path === "/v1/customers") {
      return put(connected(account), { id: id("cus"), object: "customer", created: now(), metadata: p.metadata ?? {}, livemode: false });
    }
    if (method === "GET" && (m = path.match(/^\/v1\/customers\/([^/]+)$/))) return owned(account, m[1]!, "customer");
    if (method === "POST" && path === "/v1/products") {
      return put(connected(account), { id: id("prod"), object: "product", name: p.name, active: true, created: now(), metadata: p.metadata ?? {} });
    }
    if (method === "POST" && path === "/v1/payment_intents") {
      connected(account);
      if (p.customer) owned(account, p.customer, "customer");
      if (!/^\d+$/.test(p.amount ?? "")) throw new StripeError(400, "Invalid integer: amount", "parameter_invalid_integer");
      const pi = id("pi");
      return put(account!, { id: pi, object: "payment_intent", amount: Number(p.amount), currency: p.currency, customer: p.customer ?? null, status: "requires_payment_method", client_secret: `${pi}_secret_${randomBytes(12).toString("hex")}`, metadata: p.metadata ?? {}, created: now(), livemode: false });
    }
    if (method === "GET" && (m = path.match(/^\/v1\/payment_intents\/([^/]+)$/))) return owned(account, m[1]!, "payment_intent");
    if (method === "POST" && path === "/v1/subscriptions") {
      connected(account);
      owned(account, p.customer, "customer");
      const item = p.items?.[0];
      const priceData = item?.price_data;
      if (!priceData?.recurring?.interval || !priceData.product) throw new StripeError(400, "Missing required param: items[0][price_data]", "parameter_missing");
      owned(account, priceData.product, "product");
      const subId = id("sub");
      const trialEnd = p.trial_end ? Number(p.trial_end) : null;
      const unitAmount = Number(priceData.unit_amount);
      const quantity = Number(item.quantity ?? 1);
      const amountDue = trialEnd ? 0 : unitAmount * quantity;
      const start = now();
      const periodEnd = trialEnd ?? start + PERIOD_SECONDS[priceData.recurring.interval as keyof typeof PERIOD_SECONDS] * Number(priceData.recurring.interval_count ?? 1);
      let confirmation: Obj | null = null;
      let paymentIntent: string | null = null;
      if (amountDue > 0) {
        const pi = put(account!, { id: id("pi"), object: "payment_intent", amount: amountDue, currency: priceData.currency, customer: p.customer, status: "requires_payment_method", metadata: {}, created: start, livemode: false, subscription: subId });
        pi.client_secret = `${pi.id}_secret_${randomBytes(12).toString("hex")}`;
        paymentIntent = pi.id;
        confirmation = { client_secret: pi.client_secret, type: "payment_intent" };
      }
      const invoice = put(account!, { id: id("in"), object: "invoice", customer: p.customer, subscription: subId, amount_due: amountDue, currency: priceData.currency, status: amountDue > 0 ? "open" : "paid", confirmation_secret: confirmation, payment_intent_id: paymentIntent, created: start });
      const sub = put(account!, {
        id: subId, object: "subscription", customer: p.customer, status: trialEnd ? "trialing" : "incomplete", cancel_at_period_end: false, created: start, start_date: start,
        metadata: p.metadata ?? {}, trial_end: trialEnd, latest_invoice: invoice.id, livemode: false,
        items: { object: "list", data: [{ id: id("si"), object: "subscription_item", quantity, current_period_start: start, current_period_end: periodEnd, price: { id: id("price"), object: "price", currency: priceData.currency, unit_amount: unitAmount, product: priceData.product, recurring: priceData.recurring } }], has_more: false, url: "/v1/subscription_items" },
      });
      return subscriptionView(sub, expand);
    }
    if (method === "GET" && path === "/v1/subscriptions") {
      connected(account);
      const data = [...objects.values()]
        .filter((o) => o.account === account && o.object === "subscription" && (!p.customer || o.customer === p.customer))
        .filter((o) => (p.status ?? "active") === "all" || o.status === (p.status ?? "active"))
        .sort((a, b) => b.created - a.created)
        .map((o) => subscriptionView(o, expand));
      return { object: "list", data, has_more: false, url: "/v1/subscriptions" };
    }
    if (method === "GET" && (m = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) return subscriptionView(owned(account, m[1]!, "subscription"), expand);
    if (method === "POST" && (m = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) return subscriptionView(updateSubscription(account, m[1]!, p), expand);
    throw new StripeError(404, `Unrecognized request URL (${method}: ${path}) in the Stripe stand-in`, "unrecognized_url");
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://stand-in");
    const account = (req.headers["stripe-account"] as string | undefined) ?? null;
    const params = parseStripeForm(req.method === "GET" ? url.search.slice(1) : Buffer.concat(chunks).toString("utf8"));
    requests.push({ method: req.method ?? "GET", path: url.pathname, account, params });
    const send = (status: number, body: Obj) => {
      res.writeHead(status, { "content-type": "application/json", "request-id": id("req") });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
    }
    // A retried or repeated request with the same idempotency key gets the first answer (Stripe keeps it 24 h).
    const key = req.headers["idempotency-key"] as string | undefined;
    const remembered = key && req.method === "POST" ? idempotent.get(`${account}\n${key}`) : undefined;
    if (remembered) return send(200, remembered);
    try {
      const body = publicView(route(req.method ?? "GET", url.pathname, account, params));
      if (key && req.method === "POST") idempotent.set(`${account}\n${key}`, body);
      send(200, body);
    } catch (error) {
      if (!(error instanceof StripeError)) return send(500, { error: { type: "api_error", message: String(error) } });
      send(error.status, { error: { type: "invalid_request_error", code: error.code, message: error.message } });
    }
  }

  const standIn: StripeStandIn = {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    secretKey,
    webhookSecret,
    requests,
    accounts,
    objects,
    paymentIntentOfSecret(clientSecret) {
      const found = [...objects.values()].find((o) => o.object === "payment_intent" && o.client_secret === clientSecret);
      if (!found) throw new Error(`No payment intent has the client secret ${clientSecret}`);
      return found;
    },
    succeedPaymentIntent(piId) {
      const pi = objects.get(piId);
      if (!pi || pi.object !== "payment_intent") throw new Error(`No payment intent ${piId}`);
      pi.status = "succeeded";
      if (pi.subscription) {
        const sub = objects.get(pi.subscription)!;
        sub.status = "active";
        const invoice = objects.get(sub.latest_invoice)!;
        invoice.status = "paid";
      }
      return publicView(pi);
    },
    updateSubscription(subId, change) {
      const sub = objects.get(subId);
      if (!sub || sub.object !== "subscription") throw new Error(`No subscription ${subId}`);
      const { current_period_start, current_period_end, ...rest } = change;
      Object.assign(sub, rest);
      if (current_period_start !== undefined) sub.items.data[0].current_period_start = current_period_start;
      if (current_period_end !== undefined) sub.items.data[0].current_period_end = current_period_end;
      return publicView(sub);
    },
    completeOnboarding(accountId) {
      const account = accounts.get(accountId);
      if (!account) throw new Error(`No account ${accountId}`);
      Object.assign(account, { charges_enabled: true, details_submitted: true, payouts_enabled: true });
    },
    async sendEvent(serverUrl, event, sendOptions = {}) {
      const payload = JSON.stringify({
        id: event.id ?? id("evt"), object: "event", api_version: "2026-10-28.endive", created: now(), livemode: false, pending_webhooks: 1,
        request: { id: null, idempotency_key: null }, type: event.type, ...(event.account && { account: event.account }), data: { object: event.object },
      });
      const signature = new Stripe(secretKey).webhooks.generateTestHeaderString({ payload, secret: sendOptions.secret ?? webhookSecret });
      return fetch(`${serverUrl}/api/v1/integrations/stripe/webhooks`, { method: "POST", headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signature }, body: payload });
    },
    async stop() {
      const current = server;
      server = undefined;
      if (!current) return;
      current.closeAllConnections();
      await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    async start() {
      if (server) return;
      const next = createServer((req, res) => void handle(req, res));
      await new Promise<void>((resolve, reject) => {
        next.once("error", reject);
        next.listen(port, "127.0.0.1", () => resolve());
      });
      port = (next.address() as { port: number }).port;
      server = next;
    },
  };
  await standIn.start();
  return standIn;
}
