import { ITEM_QUANTITY_INSUFFICIENT_AMOUNT, isKnownError } from "../http/client-errors.js";
import { itemFromWire, itemPath, type Customer, type Item, type WireItem } from "../wire/payments.js";
import type { AppContext } from "./app-context.js";
import { customerOf, NoCustomerError, type CustomerOptions } from "./client-payment-actions.js";

/** What a quantity change may carry besides its size (both are recorded with it and listed as a transaction). */
export interface QuantityChangeOptions {
  /** When the change lapses (e.g. credits valid for a month); never by default. */
  expiresAt?: Date;
  description?: string;
}

/**
 * An item of a customer as a server app sees it: its quantity, and the changes only a server may make (the
 * reference's `ServerItem`). Each change is recorded as an item quantity change; the quantity here is the one
 * read, not updated by the calls (read it again with `getItem`).
 */
export interface ServerItem extends Item {
  increaseQuantity(delta: number, options?: QuantityChangeOptions): Promise<void>;
  /** Decreases even below zero (e.g. usage billed afterwards). */
  decreaseQuantity(delta: number, options?: QuantityChangeOptions): Promise<void>;
  /** Decreases only if the customer has at least `delta`; false (and nothing changed) otherwise. Race-free on the server. */
  tryDecreaseQuantity(delta: number, options?: QuantityChangeOptions): Promise<boolean>;
}

export interface ServerPaymentActions {
  /** The customer's item with its quantity-changing methods. */
  getItem(options: { itemId: string } & CustomerOptions): Promise<ServerItem>;
}

/** `afterChange` reloads the app's payments stores, so widgets on the page show the new balance. */
export function serverPaymentActions(ctx: AppContext, afterChange: () => Promise<void>): ServerPaymentActions {
  async function change(customer: Customer, itemId: string, delta: number, allowNegative: boolean, options: QuantityChangeOptions = {}): Promise<void> {
    if (!Number.isSafeInteger(delta)) throw new RangeError(`An item quantity changes by whole numbers; got ${delta}.`);
    await ctx.call({
      method: "POST",
      path: `${itemPath(customer, itemId)}/update-quantity`,
      query: { allow_negative: allowNegative },
      session: null,
      body: {
        delta,
        ...(options.expiresAt ? { expires_at: options.expiresAt.toISOString() } : {}),
        ...(options.description === undefined ? {} : { description: options.description }),
      },
    });
    await afterChange();
  }

  return {
    async getItem(options) {
      const customer = await customerOf(ctx, options);
      if (!customer) throw new NoCustomerError();
      const item = itemFromWire(await ctx.call<WireItem>({ method: "GET", path: itemPath(customer, options.itemId), session: null }));
      return {
        ...item,
        increaseQuantity: (delta, changeOptions) => change(customer, options.itemId, delta, false, changeOptions),
        decreaseQuantity: (delta, changeOptions) => change(customer, options.itemId, -delta, true, changeOptions),
        async tryDecreaseQuantity(delta, changeOptions) {
          try {
            await change(customer, options.itemId, -delta, false, changeOptions);
            return true;
          } catch (error) {
            if (isKnownError(error, ITEM_QUANTITY_INSUFFICIENT_AMOUNT)) return false;
            throw error;
          }
        },
      };
    },
  };
}
