import type { WebhookEventType } from "@latchkey/core";
import { useId } from "react";
import { TextField } from "../../../components/text-field.js";
import type { EndpointFormInput } from "./endpoint-form.js";
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
  errors: Partial<Record<keyof EndpointFormInput, string>>;
  eventTypes: WebhookEventType[];
}) {
  const id = useId();
  const field = (name: "url" | "description", label: string, hint: string, extra: { type?: string; inputMode?: "url"; placeholder?: string } = {}) => (
    <TextField
      id={`${id}-${name}`}
      {...extra}
      label={label}
      hint={hint}
      error={errors[name]}
      value={input[name]}
      onChange={(value) => onChange({ ...input, [name]: value })}
    />
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
