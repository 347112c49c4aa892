import { useId } from "react";
import { TextField } from "../../../components/text-field.js";
import { IntervalField } from "./interval-field.js";
import type { IncludedItemInput, OfferErrors } from "./offer-input.js";
import type { ExpiresRule, PaymentsConfig } from "./payments-config.js";

const EXPIRES_LABELS: Record<ExpiresRule, string> = {
  "when-purchase-expires": "When the purchase ends",
  "when-repeated": "When granted again",
  never: "Never",
};

/**
 * One item an offer includes: which item, how many per unit bought, how often it is granted again while the
 * purchase lasts, and when a grant stops counting.
 */
export function IncludedItemFields({
  index,
  included,
  payments,
  onChange,
  onRemove,
  errors,
}: {
  index: number;
  included: IncludedItemInput;
  payments: PaymentsConfig;
  onChange: (included: IncludedItemInput) => void;
  onRemove: () => void;
  errors: OfferErrors;
}) {
  const id = useId();
  const at = `includedItems.${index}`;
  const itemError = errors[`${at}.itemId`];
  const name = included.itemId || `${index + 1}`;
  return (
    <fieldset className="payments-fieldset">
      <legend>Included item {name}</legend>
      <div className="dashboard-field">
        <label htmlFor={`${id}-item`}>Item</label>
        <select
          id={`${id}-item`}
          value={included.itemId}
          aria-invalid={itemError ? true : undefined}
          aria-describedby={itemError ? `${id}-item-error` : undefined}
          onChange={(event) => onChange({ ...included, itemId: event.target.value })}
        >
          <option value="">Choose an item</option>
          {Object.entries(payments.items).map(([itemId, item]) => (
            <option key={itemId} value={itemId}>
              {item.displayName || itemId} ({itemId})
            </option>
          ))}
        </select>
        {itemError ? (
          <span id={`${id}-item-error`} className="dashboard-error">
            {itemError}
          </span>
        ) : null}
      </div>
      <TextField
        id={`${id}-quantity`}
        label="Quantity"
        inputMode="numeric"
        hint="Per unit bought."
        value={included.quantity}
        error={errors[`${at}.quantity`]}
        onChange={(quantity) => onChange({ ...included, quantity })}
      />
      <IntervalField legend="Granted again" noneLabel="Never: granted once" value={included.repeat} error={errors[`${at}.repeat`]} onChange={(repeat) => onChange({ ...included, repeat })} />
      <div className="dashboard-field">
        <label htmlFor={`${id}-expires`}>Stops counting</label>
        <select id={`${id}-expires`} value={included.expires} onChange={(event) => onChange({ ...included, expires: event.target.value as ExpiresRule })}>
          {Object.entries(EXPIRES_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <button type="button" className="dashboard-secondary dashboard-small-button" onClick={onRemove}>
        Remove included item {name}
      </button>
    </fieldset>
  );
}
