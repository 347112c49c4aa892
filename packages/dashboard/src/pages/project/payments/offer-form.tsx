import { useEffect, useId, useRef, useState } from "react";
import { FailureAlert } from "../../../components/failure-alert.js";
import { TextField } from "../../../components/text-field.js";
import { useConfigOverrideUpdate } from "../project-config/project-config-queries.js";
import { IncludedItemFields } from "./included-item-fields.js";
import { IntervalField } from "./interval-field.js";
import { checkOffer, emptyIncludedItem, emptyPrice, newOfferInput, offerInput, type OfferErrors, type OfferInput } from "./offer-input.js";
import { paymentsKey, type PaymentsConfig } from "./payments-config.js";
import { CUSTOMER_TYPES, CUSTOMER_TYPE_LABELS, type CustomerType } from "./payments-rules.js";
import { PriceFields } from "./price-fields.js";

/**
 * Adds an offer (`offerId` null) or edits one: its name, customers, group, add-on bases, free trial, prices
 * (or "included by default") and included items. Checked before sending; the offer is written whole under
 * its own key, so a removed price or item goes with it. `onDone` closes the form (saved or cancelled).
 */
export function OfferForm({ offerId, payments, onDone }: { offerId: string | null; payments: PaymentsConfig; onDone: (saved: string | null) => void }) {
  const id = useId();
  const save = useConfigOverrideUpdate();
  const existing = offerId === null ? undefined : payments.offers[offerId];
  const [input, setInput] = useState<OfferInput>(() => (offerId && existing ? offerInput(offerId, existing) : newOfferInput()));
  const [errors, setErrors] = useState<OfferErrors>({});
  const set = (change: Partial<OfferInput>) => setInput({ ...input, ...change });
  const otherOffers = Object.entries(payments.offers).filter(([other]) => other !== offerId);
  // The form opens below the list, away from the button that opened it (which it replaces): focus follows.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const submit = () => {
    save.reset();
    const checked = checkOffer(input, payments, offerId === null);
    if ("errors" in checked) {
      setErrors(checked.errors);
      // The first problem's field gets the focus, so a long form shows where to look.
      requestAnimationFrame(() => document.querySelector<HTMLElement>(`#${CSS.escape(`${id}-form`)} [aria-invalid="true"]`)?.focus());
      return;
    }
    setErrors({});
    const savedId = offerId ?? input.id.trim();
    save.mutate({ [paymentsKey("offers", savedId)]: checked.offer }, { onSuccess: () => onDone(savedId) });
  };

  return (
    <form
      id={`${id}-form`}
      className="dashboard-form"
      aria-label={offerId ? `Edit the offer ${offerId}` : "Add an offer"}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h3 ref={heading} tabIndex={-1}>
        {offerId ? `Edit ${offerId}` : "Add an offer"}
      </h3>
      {offerId ? null : (
        <TextField
          id={`${id}-id`}
          label="Offer id"
          hint="Letters, digits, _ and -; how your code names it. It cannot be changed later."
          value={input.id}
          error={errors.id}
          onChange={(value) => set({ id: value })}
        />
      )}
      <TextField id={`${id}-name`} label="Display name" hint="What customers see." value={input.displayName} error={errors.displayName} onChange={(value) => set({ displayName: value })} />
      <div className="dashboard-field">
        <label htmlFor={`${id}-customer-type`}>Sold to</label>
        <select id={`${id}-customer-type`} value={input.customerType} onChange={(event) => set({ customerType: event.target.value as CustomerType })}>
          {CUSTOMER_TYPES.map((type) => (
            <option key={type} value={type}>
              {CUSTOMER_TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      </div>
      <div className="dashboard-field">
        <label htmlFor={`${id}-group`}>Group</label>
        <select
          id={`${id}-group`}
          value={input.groupId}
          aria-invalid={errors.groupId ? true : undefined}
          aria-describedby={errors.groupId ? `${id}-group-error` : `${id}-group-hint`}
          onChange={(event) => set({ groupId: event.target.value })}
        >
          <option value="">No group</option>
          {Object.entries(payments.groups).map(([groupId, group]) => (
            <option key={groupId} value={groupId}>
              {group.displayName || groupId}
            </option>
          ))}
        </select>
        {errors.groupId ? (
          <span id={`${id}-group-error`} className="dashboard-error">
            {errors.groupId}
          </span>
        ) : (
          <span id={`${id}-group-hint`} className="dashboard-muted">
            A customer holds one offer of a group at a time (add-ons aside).
          </span>
        )}
      </div>
      {otherOffers.length > 0 ? (
        <fieldset className="payments-fieldset">
          <legend>Add-on to</legend>
          <p className="dashboard-muted">An add-on can be bought only with one of these offers. None ticked: a standalone offer.</p>
          {otherOffers.map(([other, offer]) => (
            <label key={other} className="payments-check">
              <input
                type="checkbox"
                checked={input.addOnTo.includes(other)}
                onChange={(event) => set({ addOnTo: event.target.checked ? [...input.addOnTo, other] : input.addOnTo.filter((base) => base !== other) })}
              />
              {offer.displayName || other} ({other})
            </label>
          ))}
          {errors.addOnTo ? <span className="dashboard-error">{errors.addOnTo}</span> : null}
        </fieldset>
      ) : null}
      <label className="payments-check">
        <input type="checkbox" checked={input.stackable} onChange={(event) => set({ stackable: event.target.checked })} />
        Stackable: a customer may buy several at once, or buy it again
      </label>
      <label className="payments-check">
        <input type="checkbox" checked={input.serverOnly} onChange={(event) => set({ serverOnly: event.target.checked })} />
        Server only: only your app's server may sell it (hidden from the pricing table)
      </label>
      <IntervalField legend="Free trial" noneLabel="No free trial" countLabel="Length" value={input.freeTrial} error={errors.freeTrial} onChange={(freeTrial) => set({ freeTrial })} />
      <label className="payments-check">
        <input type="checkbox" checked={input.includeByDefault} onChange={(event) => set({ includeByDefault: event.target.checked })} />
        Included by default: free, and held by every customer without another offer of its group
      </label>
      {input.includeByDefault ? null : (
        <>
          <h4>Prices</h4>
          {input.prices.map((price, index) => (
            <PriceFields
              key={price.key}
              index={index}
              price={price}
              errors={errors}
              onChange={(changed) => set({ prices: input.prices.map((p) => (p.key === price.key ? changed : p)) })}
              onRemove={() => set({ prices: input.prices.filter((p) => p.key !== price.key) })}
            />
          ))}
          {errors.prices ? <p className="dashboard-error">{errors.prices}</p> : null}
          <button type="button" className="dashboard-secondary" onClick={() => set({ prices: [...input.prices, emptyPrice()] })}>
            Add a price
          </button>
        </>
      )}
      <h4>Included items</h4>
      {input.includedItems.length === 0 ? <p className="dashboard-muted">None yet.</p> : null}
      {input.includedItems.map((included, index) => (
        <IncludedItemFields
          key={included.key}
          index={index}
          included={included}
          payments={payments}
          errors={errors}
          onChange={(changed) => set({ includedItems: input.includedItems.map((i) => (i.key === included.key ? changed : i)) })}
          onRemove={() => set({ includedItems: input.includedItems.filter((i) => i.key !== included.key) })}
        />
      ))}
      {Object.keys(payments.items).length === 0 ? (
        <p className="dashboard-muted">Add items above to include them in offers.</p>
      ) : (
        <button type="button" className="dashboard-secondary" onClick={() => set({ includedItems: [...input.includedItems, emptyIncludedItem()] })}>
          Include an item
        </button>
      )}
      {Object.keys(errors).length > 0 ? (
        <p role="alert" className="dashboard-error">
          Check the fields marked above.
        </p>
      ) : null}
      <FailureAlert action="save the offer" error={save.error} />
      <div className="dashboard-actions">
        <button type="button" className="dashboard-secondary" onClick={() => onDone(null)}>
          Cancel
        </button>
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : offerId ? "Save offer" : "Add offer"}
        </button>
      </div>
    </form>
  );
}
