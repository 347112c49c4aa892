import type { WebhookEventType } from "@latchkey/core";
import { useId } from "react";

/** The event types to filter an endpoint by, as checkboxes in a fieldset; none checked means every event type. */
export function EventTypeCheckboxes({
  eventTypes,
  selected,
  onChange,
}: {
  eventTypes: WebhookEventType[];
  selected: string[];
  onChange: (selected: string[]) => void;
}) {
  const id = useId();
  const toggle = (name: string, checked: boolean) =>
    // Kept in the server's order, whatever order they were ticked in.
    onChange(eventTypes.map((type) => type.name).filter((type) => (type === name ? checked : selected.includes(type))));
  return (
    <fieldset className="webhooks-event-types" aria-describedby={`${id}-hint`}>
      <legend>Events</legend>
      <p id={`${id}-hint`} className="dashboard-muted">
        Leave every box unticked to receive all events.
      </p>
      <ul>
        {eventTypes.map((type) => (
          <li key={type.name}>
            <input
              type="checkbox"
              id={`${id}-${type.name}`}
              checked={selected.includes(type.name)}
              onChange={(event) => toggle(type.name, event.target.checked)}
              aria-describedby={`${id}-${type.name}-description`}
            />
            <label htmlFor={`${id}-${type.name}`}>
              <code>{type.name}</code>
            </label>
            <span id={`${id}-${type.name}-description`} className="dashboard-muted">
              {type.description}
            </span>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
