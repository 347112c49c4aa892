import { useId } from "react";
import { TextField } from "../../../components/text-field.js";
import { IntervalField } from "./interval-field.js";
import type { OfferErrors, PriceInput } from "./offer-input.js";
import { CURRENCIES } from "./payments-rules.js";

/**
 * One price of an offer, in a fieldset named after it: its id, an amount per currency (blank: not sold in
 * that currency; typed and sent as decimal text), its billing interval (none: paid once), a free trial, and
 * whether only the app's server may sell it. `errors` are the offer's, `at` this price's path in them.
 */
export function PriceFields({
  index,
  price,
  onChange,
  onRemove,
  errors,
}: {
  index: number;
  price: PriceInput;
  onChange: (price: PriceInput) => void;
  onRemove: () => void;
  errors: OfferErrors;
}) {
  const id = useId();
  const at = `prices.${index}`;
  const name = price.id.trim() || `${index + 1}`;
  return (
    <fieldset className="payments-fieldset">
      <legend>Price {name}</legend>
      <TextField
        id={`${id}-id`}
        label="Price id"
        hint="e.g. monthly, yearly."
        value={price.id}
        error={errors[`${at}.id`]}
        onChange={(value) => onChange({ ...price, id: value })}
      />
      <div className="payments-amounts">
        {CURRENCIES.map(({ code, decimals }) => (
          <TextField
            key={code}
            id={`${id}-${code}`}
            label={code}
            inputMode={decimals === 0 ? "numeric" : "decimal"}
            placeholder={decimals === 0 ? "1200" : "9.99"}
            value={price.amounts[code] ?? ""}
            error={errors[`${at}.${code}`]}
            onChange={(value) => onChange({ ...price, amounts: { ...price.amounts, [code]: value } })}
          />
        ))}
      </div>
      {errors[`${at}.amounts`] ? <p className="dashboard-error">{errors[`${at}.amounts`]}</p> : null}
      <IntervalField
        legend="Billing interval"
        noneLabel="None: paid once"
        value={price.interval}
        error={errors[`${at}.interval`]}
        onChange={(interval) => onChange({ ...price, interval })}
      />
      <IntervalField
        legend="Free trial of this price"
        noneLabel="No free trial"
        countLabel="Length"
        value={price.freeTrial}
        error={errors[`${at}.freeTrial`]}
        onChange={(freeTrial) => onChange({ ...price, freeTrial })}
      />
      <label className="payments-check">
        <input type="checkbox" checked={price.serverOnly} onChange={(event) => onChange({ ...price, serverOnly: event.target.checked })} />
        Server only: only your app's server may sell at this price
      </label>
      <button type="button" className="dashboard-secondary dashboard-small-button" onClick={onRemove}>
        Remove price {name}
      </button>
    </fieldset>
  );
}
