import { readAccessToken } from "../session/access-token.js";
import { cachedStore, type CachedStore } from "../stores/cached-store.js";
import { itemFromWire, itemPath, offerFromWire, type Customer, type Item, type Offer, type OfferList, type WireItem, type WireOffer } from "../wire/payments.js";
import type { AppContext } from "./app-context.js";
import { internalsOf, type ClientApp } from "./client-app.js";

/**
 * Whose items and offers: a team (`teamId`), another user (`userId`, server apps), an id of the app's own
 * (`customCustomerId`, server apps), or, with none of them, the signed-in user.
 */
export type CustomerOptions = { teamId: string } | { userId: string } | { customCustomerId: string } | Record<never, never>;

/** Thrown when a call for "the signed-in user" is made while nobody is signed in. */
export class NoCustomerError extends Error {
  constructor() {
    super("Nobody is signed in: pass userId, teamId or customCustomerId, or sign in first.");
    this.name = "NoCustomerError";
  }
}

export interface ClientPaymentActions {
  /**
   * A link to the hosted purchase page for an offer, for the signed-in user or one of their teams (the
   * reference's `customer.createCheckoutUrl`). The link holds a single-use code valid for 24 hours.
   * `returnUrl` (where the page sends the buyer back afterwards) is sent only when given.
   */
  createCheckoutUrl(options: { offerId: string; returnUrl?: string } & CustomerOptions): Promise<string>;
  /** How many of an item the customer holds now (a client may ask for itself and its teams). */
  getItem(options: { itemId: string } & CustomerOptions): Promise<Item>;
  /** The offers the customer may buy (not server-only), with prices and whether they hold each one (Latchkey route). */
  listOffers(options?: { groupId?: string } & CustomerOptions): Promise<Offer[]>;
  /**
   * An item of the customer as a store: loads when first watched, and loads again when the page becomes visible
   * or gets focus (the buyer comes back from the purchase page), after a change this app made, when another
   * user signs in, and on `refreshPayments()`. One store per item and customer.
   */
  itemStore(options: { itemId: string } & CustomerOptions): CachedStore<Item | null>;
  /**
   * The offers of a group (or all) as a store, refreshed as `itemStore` is, with `testMode`: the server has no
   * Stripe key, so purchases complete without payment.
   */
  offersStore(options?: { groupId?: string } & CustomerOptions): CachedStore<OfferList | null>;
  /** Loads every watched item and offer store again (e.g. after a purchase the app completed itself). */
  refreshPayments(): Promise<void>;
}


/** The customer an options object names; the signed-in user's id is read from the access token (null when signed out). */
export async function customerOf(ctx: AppContext, options: CustomerOptions): Promise<Customer | null> {
  if ("teamId" in options) return { type: "team", id: options.teamId };
  if ("userId" in options) return { type: "user", id: options.userId };
  if ("customCustomerId" in options) return { type: "custom", id: options.customCustomerId };
  const tokens = await ctx.session.getTokens(0);
  const userId = tokens?.accessToken ? readAccessToken(tokens.accessToken)?.userId : undefined;
  return userId ? { type: "user", id: userId } : null;
}

async function requireCustomer(ctx: AppContext, options: CustomerOptions): Promise<Customer> {
  const customer = await customerOf(ctx, options);
  if (!customer) throw new NoCustomerError();
  return customer;
}

const keyOf = (kind: string, name: string, options: CustomerOptions) =>
  JSON.stringify([kind, name, "teamId" in options ? `team:${options.teamId}` : "userId" in options ? `user:${options.userId}` : "customCustomerId" in options ? `custom:${options.customCustomerId}` : "me"]);

const ofApp = new WeakMap<object, ClientPaymentActions>();

/**
 * The payment calls of a client app and the stores behind the payment widgets. They live outside the app
 * object (as the passkey flows do) so that bundles which never sell anything, such as the sign-in bundle, do not
 * carry them; server and admin apps have them as methods, and `paymentsOf` returns those apps themselves.
 *
 * @example
 * ```ts
 * const url = await paymentsOf(app).createCheckoutUrl({ offerId: "pro" });
 * paymentsOf(app).itemStore({ itemId: "credits" }).subscribe((state) => state.status === "ready" && show(state.value?.quantity));
 * ```
 */
export function paymentsOf(app: ClientApp | ClientPaymentActions): ClientPaymentActions {
  if ("itemStore" in app) return app;
  let actions = ofApp.get(app);
  if (!actions) ofApp.set(app, (actions = clientPaymentActions(internalsOf(app).ctx)));
  return actions;
}

/** The payment calls every app has, and the stores behind the widgets. */
export function clientPaymentActions(ctx: AppContext): ClientPaymentActions {
  const stores = new Map<string, CachedStore<unknown>>();
  let refreshing: Promise<void> | undefined;

  const refreshAll = (): Promise<void> =>
    (refreshing ??= Promise.all([...stores.values()].map((store) => store.refresh()))
      .then(() => {})
      .finally(() => {
        refreshing = undefined;
      }));

  // Coming back to the page (from the purchase page in another tab, or a payment app) may find a new
  // balance: reload what is on screen. Both events fire on a return; `refreshing` makes them one reload.
  let listening = false;
  function listenForReturns(): void {
    const page = globalThis as { document?: Document; addEventListener?: Window["addEventListener"] };
    if (listening || !page.document || !page.addEventListener) return;
    listening = true;
    page.document.addEventListener("visibilitychange", () => {
      if (page.document!.visibilityState === "visible") void refreshAll();
    });
    page.addEventListener("focus", () => void refreshAll());
  }

  // Another user (or nobody) signed in: what "the signed-in user's" stores hold is someone else's now.
  let lastRefreshToken = ctx.session.peek().refreshToken;
  ctx.session.store.subscribe((tokens) => {
    if (tokens.refreshToken === lastRefreshToken) return;
    lastRefreshToken = tokens.refreshToken;
    void refreshAll();
  });

  function shared<T>(key: string, load: () => Promise<T>): CachedStore<T> {
    let store = stores.get(key) as CachedStore<T> | undefined;
    if (!store) {
      store = cachedStore(load, ctx.clock);
      stores.set(key, store as CachedStore<unknown>);
      listenForReturns();
    }
    return store;
  }

  const getItem: ClientPaymentActions["getItem"] = async (options) => {
    const customer = await requireCustomer(ctx, options);
    return itemFromWire(await ctx.call<WireItem>({ method: "GET", path: itemPath(customer, options.itemId) }));
  };

  const loadOffers = async (options: { groupId?: string } & CustomerOptions): Promise<OfferList> => {
    const customer = await requireCustomer(ctx, options);
    const { items, test_mode } = await ctx.call<{ items: WireOffer[]; test_mode?: boolean }>({
      method: "GET",
      path: `/payments/offers/${customer.type}/${encodeURIComponent(customer.id)}`,
      query: { group_id: options.groupId },
    });
    // A server from before test_mode was sent says nothing: no note rather than a wrong one.
    return { offers: items.map(offerFromWire), testMode: test_mode === true };
  };
  const listOffers: ClientPaymentActions["listOffers"] = async (options = {}) => (await loadOffers(options)).offers;

  return {
    async createCheckoutUrl(options) {
      const customer = await requireCustomer(ctx, options);
      const { url } = await ctx.call<{ url: string }>({
        method: "POST",
        path: "/payments/purchases/create-purchase-url",
        body: {
          customer_type: customer.type,
          customer_id: customer.id,
          offer_id: options.offerId,
          ...(options.returnUrl ? { return_url: options.returnUrl } : {}),
        },
      });
      return url;
    },

    getItem,
    listOffers,

    itemStore(options) {
      // Signed out, a store of the signed-in user's item holds null rather than an error.
      return shared(keyOf("item", options.itemId, options), async () => ((await customerOf(ctx, options)) ? getItem(options) : null));
    },

    offersStore(options = {}) {
      return shared(keyOf("offers", options.groupId ?? "", options), async () =>
        (await customerOf(ctx, options)) ? loadOffers(options) : null,
      );
    },

    refreshPayments: refreshAll,
  };
}
