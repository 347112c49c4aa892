import type { WebhookEventType } from "@latchkey/core";
import { useId } from "react";
import { TextField } from "../../../components/text-field.js";
import { WEBHOOK_PAYLOAD_VERSIONS, type WebhookPayloadVersion } from "@latchkey/core";
import { PAYLOAD_VERSION_LABELS, type EndpointFormInput } from "./endpoint-form.js";
import { EventTypeCheckboxes } from "./event-type-checkboxes.js";

/** The fields of the add and edit endpoint forms: URL, description, event filter and payload version, each with its problem. */
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
      <div className="dashboard-field">
        <label htmlFor={`${id}-payload-version`}>Payload format</label>
        <select
          id={`${id}-payload-version`}
          aria-describedby={`${id}-payload-version-hint`}
          value={input.payloadVersion}
          onChange={(event) => onChange({ ...input, payloadVersion: event.target.value as WebhookPayloadVersion })}
        >
          {WEBHOOK_PAYLOAD_VERSIONS.map((version) => (
            <option key={version} value={version}>
              {PAYLOAD_VERSION_LABELS[version]}
            </option>
          ))}
        </select>
        <span id={`${id}-payload-version-hint`} className="dashboard-muted">
          The Stack SDK version of the app that receives the events. With 2.8.108, users also carry is_restricted, restricted_reason,
          restricted_by_admin, country_code and risk_scores.
        </span>
      </div>
    </>
  );
}
