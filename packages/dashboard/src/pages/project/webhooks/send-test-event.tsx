import type { AdminApp, WebhookEndpoint } from "@latchkey/core";
import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { FailureAlert } from "../../../components/failure-alert.js";
import { QueryState } from "../../../components/query-state.js";
import { useRefreshDeliveries, useWebhookEventTypes } from "./webhook-queries.js";

/** Sends the endpoint an example event of a chosen type, signed like a real one; it shows up in the deliveries. */
export function SendTestEvent({ projectId, admin, endpoint }: { projectId: string; admin: AdminApp; endpoint: WebhookEndpoint }) {
  const id = useId();
  const eventTypes = useWebhookEventTypes(projectId, admin);
  const refreshDeliveries = useRefreshDeliveries(projectId, endpoint.id);
  const [eventType, setEventType] = useState(endpoint.filterTypes?.[0] ?? "user.created");
  const send = useMutation({
    mutationFn: (type: string) => admin.sendTestWebhookEvent(endpoint.id, type),
    onSuccess: () => refreshDeliveries(),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    send.mutate(eventType);
  }

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Send a test event</h2>
      <QueryState query={eventTypes} what="the event types">
        {(types) => (
          <form onSubmit={submit} className="dashboard-form">
            <p className="dashboard-muted">An example event of the chosen type, with made-up data, is sent to this endpoint whatever its event filter.</p>
            <div className="dashboard-field">
              <label htmlFor={`${id}-type`}>Event type</label>
              <select id={`${id}-type`} value={eventType} onChange={(event) => setEventType(event.target.value)}>
                {types.map((type) => (
                  <option key={type.name} value={type.name}>
                    {type.name}
                  </option>
                ))}
              </select>
            </div>
            <FailureAlert action="send the test event" error={send.error} />
            <p role="status" className="dashboard-muted">
              {send.isSuccess ? `A test ${send.variables} event is on its way; it is listed under Deliveries.` : ""}
            </p>
            <button type="submit" disabled={send.isPending}>
              {send.isPending ? "Sending…" : "Send test event"}
            </button>
          </form>
        )}
      </QueryState>
    </section>
  );
}
