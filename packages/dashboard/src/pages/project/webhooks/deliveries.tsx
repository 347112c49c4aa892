import type { AdminApp, WebhookDeliveryStatus, WebhookEndpointMessage } from "@latchkey/core";
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { FailureAlert } from "../../../components/failure-alert.js";
import { QueryState } from "../../../components/query-state.js";
import { SimpleTable } from "../../../components/simple-table.js";
import { isAboutToChange, useEndpointMessages, useRefreshDeliveries, webhookKeys } from "./webhook-queries.js";

const STATUS_LABELS: Record<WebhookDeliveryStatus, string> = {
  success: "Succeeded",
  pending: "Pending",
  fail: "Failed",
  sending: "Sending",
};

/**
 * The endpoint's latest deliveries, newest first: each message's event type, time and state; opened, its
 * payload and every attempt (retries included), with "Resend" when it did not get through.
 */
export function Deliveries({ projectId, admin, endpointId }: { projectId: string; admin: AdminApp; endpointId: string }) {
  const messages = useEndpointMessages(projectId, admin, endpointId);
  return (
    <section className="dashboard-card" aria-labelledby="webhook-deliveries-title">
      <div className="webhooks-heading">
        <h2 id="webhook-deliveries-title">Deliveries</h2>
        <button type="button" className="dashboard-secondary" onClick={() => void messages.refetch()} disabled={messages.isFetching}>
          {messages.isFetching ? "Refreshing…" : "Refresh"}
        </button>
      </div>
      <QueryState
        query={messages}
        what="the deliveries"
        isEmpty={(list) => list.length === 0}
        empty={<p>No deliveries yet. Send a test event, or wait for the project's next event.</p>}
      >
        {(list) => (
          <ul className="webhooks-deliveries" aria-label="Deliveries">
            {list.map((message) => (
              <Delivery key={message.id} projectId={projectId} admin={admin} endpointId={endpointId} message={message} />
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}

function Delivery({ projectId, admin, endpointId, message }: { projectId: string; admin: AdminApp; endpointId: string; message: WebhookEndpointMessage }) {
  const [open, setOpen] = useState(false);
  return (
    <li>
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          <code>{message.eventType}</code> <DeliveryStatus status={message.status} />{" "}
          <time dateTime={message.createdAt.toISOString()} className="dashboard-muted">
            {message.createdAt.toLocaleString()}
          </time>
        </summary>
        {open ? <DeliveryDetails projectId={projectId} admin={admin} endpointId={endpointId} message={message} /> : null}
      </details>
    </li>
  );
}

export function DeliveryStatus({ status }: { status: WebhookDeliveryStatus }) {
  return <span className={`webhooks-badge webhooks-badge-${status}`}>{STATUS_LABELS[status]}</span>;
}

function DeliveryDetails({
  projectId,
  admin,
  endpointId,
  message,
}: {
  projectId: string;
  admin: AdminApp;
  endpointId: string;
  message: WebhookEndpointMessage;
}) {
  const refreshDeliveries = useRefreshDeliveries(projectId, endpointId);
  const attempts = useQuery({
    // The delivery's state is part of the key: a new state means new attempts to show.
    queryKey: [...webhookKeys.attempts(projectId, endpointId, message.id), message.status],
    queryFn: () => admin.listWebhookMessageAttempts(message.id, endpointId),
    refetchInterval: isAboutToChange(message) ? 2_000 : false,
    // The previous state's attempts stay on screen while the new state's are read.
    placeholderData: keepPreviousData,
  });
  const resend = useMutation({
    mutationFn: () => admin.resendWebhookMessage(message.id, endpointId),
    onSuccess: () => refreshDeliveries(),
  });
  const lastFailed = attempts.data?.[0] !== undefined && !attempts.data[0].succeeded;
  const canResend = message.status === "fail" || (message.status === "pending" && lastFailed);

  return (
    <div className="webhooks-delivery">
      <p className="dashboard-muted">
        Message <code>{message.id}</code>
        {message.status === "pending" && message.nextAttemptAt ? <> · next try at {message.nextAttemptAt.toLocaleString()}</> : null}
      </p>
      <details className="webhooks-payload">
        <summary>Payload</summary>
        <pre className="dashboard-code" aria-label={`Payload of ${message.id}`} tabIndex={0}>
          {JSON.stringify(message.payload, null, 2)}
        </pre>
      </details>
      <h3>Attempts</h3>
      <QueryState query={attempts} what="the attempts" isEmpty={(list) => list.length === 0} empty={<p>No attempt yet: it is about to be sent.</p>}>
        {(list) => (
          <SimpleTable columns={["Attempt", "Time", "Result", "Status code", "Response", "Duration"]} region={`Attempts of ${message.id}`}>
            {list.map((attempt, index) => (
              <tr key={attempt.id}>
                <td>{list.length - index}</td>
                <td className="webhooks-nowrap">
                  <time dateTime={attempt.attemptedAt.toISOString()}>{attempt.attemptedAt.toLocaleString()}</time>
                </td>
                <td>
                  <DeliveryStatus status={attempt.succeeded ? "success" : "fail"} />
                </td>
                <td>{attempt.responseStatusCode === 0 ? "No answer" : attempt.responseStatusCode}</td>
                <td>
                  <code className="webhooks-response">{attempt.response || "(empty)"}</code>
                </td>
                <td className="webhooks-nowrap">{attempt.responseDurationMs} ms</td>
              </tr>
            ))}
          </SimpleTable>
        )}
      </QueryState>
      <FailureAlert action="resend the message" error={resend.error} />
      {canResend ? (
        <button type="button" onClick={() => resend.mutate()} disabled={resend.isPending}>
          {resend.isPending ? "Resending…" : "Resend"}
        </button>
      ) : null}
      <p role="status" className="dashboard-muted">
        {resend.isSuccess ? "Sent again; the new attempt is listed above once it is made." : ""}
      </p>
    </div>
  );
}
