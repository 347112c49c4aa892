import { paymentsOf, type CachedStore, type ClientApp, type ClientPaymentActions, type CustomerOptions, type Interval, type Loadable, type Price } from "@latchkey/core";
import { AuthElement } from "../../base/auth-element.js";
import { getLocale, msg, str } from "../../base/i18n.js";

/**
 * The base of the payment widgets: one store of the app's payments (an item, a group's offers), chosen by the
 * element's attributes and chosen again when they or the app change; the element re-renders on each value.
 */
export abstract class PaymentsElement<T> extends AuthElement {
  static override properties = { teamId: { attribute: "team-id" } };

  /** A team of the signed-in user whose items or plans to show, instead of the user's own. */
  declare teamId: string | undefined;

  private current: { key: string; store: CachedStore<T | null>; stop: () => void } | undefined;
  protected state: Loadable<T | null> = { status: "loading" };

  /** The store to show, and a key that changes when another store is wanted. */
  protected abstract select(payments: ClientPaymentActions, customer: CustomerOptions): { key: string; store: CachedStore<T | null> } | undefined;

  protected customer(): CustomerOptions {
    return this.teamId ? { teamId: this.teamId } : {};
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    this.follow();
  }

  // Moved in the page (disconnected, then connected again): subscribe again on the update this asks for.
  override connectedCallback(): void {
    super.connectedCallback();
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.current?.stop();
    this.current = undefined;
  }

  protected override appAttached(_app: ClientApp): void {
    this.current?.stop();
    this.current = undefined;
  }

  /** Subscribes to the selected store (once per key); the subscription's first call renders its current value. */
  private follow(): void {
    if (!this.app) return;
    const selected = this.select(paymentsOf(this.app), this.customer());
    const key = selected ? selected.key : "";
    if (this.current?.key === key) return;
    this.current?.stop();
    this.current = undefined;
    if (!selected) return;
    const stop = selected.store.subscribe((state) => {
      if (this.state === state) return;
      this.state = state;
      this.requestUpdate();
    });
    this.current = { key, store: selected.store, stop };
  }
}

/** An amount (a decimal string, never a float) in the page's language: "$9.99", "9,99 €". */
export function formatMoney(amount: string, currency: string): string {
  // Intl.NumberFormat reads decimal strings exactly (ECMA-402 "Intl.NumberFormat v3"), so "9.99" stays 9.99.
  return new Intl.NumberFormat(getLocale(), { style: "currency", currency }).format(amount as unknown as number);
}

/** The price's amount in `currency`, else in the first currency it has. */
export function priceAmount(price: Price, currency: string): { amount: string; currency: string } | undefined {
  const own = price.amounts[currency as keyof Price["amounts"]];
  if (own !== undefined) return { amount: own, currency };
  const [first] = Object.entries(price.amounts);
  return first ? { amount: first[1], currency: first[0] } : undefined;
}

/** "per month", "every 3 months" (an interval of a subscription). */
export function perInterval([count, unit]: Interval): string {
  if (count === 1) {
    switch (unit) {
      case "day":
        return msg("per day");
      case "week":
        return msg("per week");
      case "month":
        return msg("per month");
      case "year":
        return msg("per year");
    }
  }
  switch (unit) {
    case "day":
      return msg(str`every ${count} days`);
    case "week":
      return msg(str`every ${count} weeks`);
    case "month":
      return msg(str`every ${count} months`);
    case "year":
      return msg(str`every ${count} years`);
  }
}

/** "7-day free trial", in the units the config uses. */
export function freeTrial([count, unit]: Interval): string {
  switch (unit) {
    case "day":
      return msg(str`Free trial: ${count} days`);
    case "week":
      return msg(str`Free trial: ${count} weeks`);
    case "month":
      return msg(str`Free trial: ${count} months`);
    case "year":
      return msg(str`Free trial: ${count} years`);
  }
}
