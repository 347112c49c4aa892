import type { WebhookEventType } from "@latchkey/core";
import { useId } from "react";
import type { EndpointFormInput, endpointFormErrors } from "./endpoint-form.js";
import { EventTypeCheckboxes } from "./event-type-checkboxes.js";

/** The fields of the add and edit endpoint forms: URL, description and event filter, each with its problem. */
export function EndpointFields({
  input,
  onChange,
  errors,
  eventTypes,
}: {
  input: EndpointFormInput;
  onChange: (input: EndpointFormInput) => void;
  errors: ReturnType<typeof endpointFormErrors>;
  eventTypes: WebhookEventType[];
}) {
  const id = useId();
  const field = (name: "url" | "description", label: string, hint: string, extra: { type?: string; inputMode?: "url"; placeholder?: string } = {}) => (
    <div className="dashboard-field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        {...extra}
        value={input[name]}
        onChange={(event) => onChange({ ...input, [name]: event.target.value })}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={`${id}-${name}-${errors[name] ? "error" : "hint"}`}
      />
      {errors[name] ? (
        <span id={`${id}-${name}-error`} className="dashboard-error">
          {errors[name]}
        </span>
      ) : (
        <span id={`${id}-${name}-hint`} className="dashboard-muted">
          {hint}
        </span>
      )}
    </div>
  );
  return (
    <>
      {field("url", "Endpoint URL", "Each event is sent here as a signed POST request.", {
        type: "url",
        inputMode: "url",
        placeholder: "https://example.com/webhooks",
      })}
      {field("description", "Description", "Optional: what receives these events.")}
      <EventTypeCheckboxes eventTypes={eventTypes} selected={input.filterTypes} onChange={(filterTypes) => onChange({ ...input, filterTypes })} />
    </>
  );
}
