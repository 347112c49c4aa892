import { useId } from "react";
import type { IntervalInput } from "./offer-input.js";
import { INTERVAL_UNITS } from "./payments-rules.js";

/**
 * An interval as a count and a unit ("1 month"), in a fieldset named `legend`; the unit's first choice,
 * `noneLabel`, means none (no free trial, a one-time price, an item granted once). The count shows only
 * while a unit is chosen.
 */
export function IntervalField({
  legend,
  noneLabel,
  countLabel = "Every",
  value,
  onChange,
  error,
}: {
  legend: string;
  noneLabel: string;
  /** The count's label: "Every" (an interval, a repeat) or "Length" (a free trial). */
  countLabel?: string;
  value: IntervalInput;
  onChange: (value: IntervalInput) => void;
  error?: string | undefined;
}) {
  const id = useId();
  return (
    <fieldset className="payments-fieldset payments-interval" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      <div className="payments-row">
        {value.unit === "" ? null : (
          <div className="dashboard-field payments-count">
            <label htmlFor={`${id}-count`}>{countLabel}</label>
            <input
              id={`${id}-count`}
              inputMode="numeric"
              value={value.count}
              aria-invalid={error ? true : undefined}
              onChange={(event) => onChange({ ...value, count: event.target.value })}
            />
          </div>
        )}
        <div className="dashboard-field">
          <label htmlFor={`${id}-unit`}>Unit</label>
          <select id={`${id}-unit`} value={value.unit} onChange={(event) => onChange({ ...value, unit: event.target.value as IntervalInput["unit"] })}>
            <option value="">{noneLabel}</option>
            {INTERVAL_UNITS.map((unit) => (
              <option key={unit} value={unit}>
                {unit}s
              </option>
            ))}
          </select>
        </div>
      </div>
      {error ? (
        <span id={`${id}-error`} className="dashboard-error">
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}
