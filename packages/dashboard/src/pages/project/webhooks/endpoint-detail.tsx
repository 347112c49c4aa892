import type { AdminApp, WebhookEndpoint } from "@latchkey/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { QueryState } from "../../../components/query-state.js";
import { useProjectAdmin } from "../../../project-admin.js";
import { useConfirmedAction } from "../../../use-confirmed-action.js";
import { Deliveries } from "./deliveries.js";
import { EditEndpointForm } from "./edit-endpoint-form.js";
import { PAYLOAD_VERSION_LABELS, describeFilter } from "./endpoint-form.js";
import { EndpointStatus } from "./endpoints-list.js";
import { SendTestEvent } from "./send-test-event.js";
import { SigningSecret } from "./signing-secret.js";
import { webhookKeys } from "./webhook-queries.js";

/** One endpoint: what it is, its signing secret, test events, its deliveries, and deleting it. */
export function EndpointDetail({ projectId, endpointId }: { projectId: string; endpointId: string }) {
  const admin = useProjectAdmin(projectId);
  const endpoint = useQuery({
    queryKey: webhookKeys.endpoint(projectId, endpointId),
    queryFn: () => admin.getWebhookEndpoint(endpointId),
  });
  return (
    <>
      <p>
        <Link to="/projects/$projectId/webhooks" params={{ projectId }}>
          ← All endpoints
        </Link>
      </p>
      <QueryState query={endpoint} what="the endpoint">
        {(loaded) => (
          <>
            <EndpointSummary projectId={projectId} admin={admin} endpoint={loaded} />
            <SigningSecret projectId={projectId} admin={admin} endpointId={loaded.id} />
            <SendTestEvent projectId={projectId} admin={admin} endpoint={loaded} />
            <Deliveries projectId={projectId} admin={admin} endpointId={loaded.id} />
          </>
        )}
      </QueryState>
    </>
  );
}

function EndpointSummary({ projectId, admin, endpoint }: { projectId: string; admin: AdminApp; endpoint: WebhookEndpoint }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const toggle = useMutation({
    mutationFn: () =>
      admin.updateWebhookEndpoint(endpoint.id, {
        disabled: !endpoint.disabled,
      }),
    onSuccess: (updated) => {
      queryClient.setQueryData(webhookKeys.endpoint(projectId, endpoint.id), updated);
      return queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints(projectId) });
    },
  });
  const remove = useConfirmedAction({
    action: () => admin.deleteWebhookEndpoint(endpoint.id),
    failure: "delete the endpoint",
    onDone: async () => {
      queryClient.removeQueries({
        queryKey: webhookKeys.endpoint(projectId, endpoint.id),
      });
      await queryClient.invalidateQueries({
        queryKey: webhookKeys.endpoints(projectId),
      });
      await navigate({
        to: "/projects/$projectId/webhooks",
        params: { projectId },
      });
    },
  });

  return (
    <section className="dashboard-card" aria-labelledby="webhook-endpoint-title">
      <h2 id="webhook-endpoint-title" className="webhooks-url">
        {endpoint.url}
      </h2>
      {editing ? (
        <EditEndpointForm projectId={projectId} admin={admin} endpoint={endpoint} onDone={() => setEditing(false)} />
      ) : (
        <>
          <dl className="dashboard-facts">
            <dt>Description</dt>
            <dd>{endpoint.description || "None"}</dd>
            <dt>Events</dt>
            <dd>{describeFilter(endpoint.filterTypes)}</dd>
            <dt>Payload format</dt>
            <dd>{PAYLOAD_VERSION_LABELS[endpoint.payloadVersion]}</dd>
            <dt>Status</dt>
            <dd>
              <EndpointStatus disabled={endpoint.disabled} />
              {endpoint.disabled ? <span className="dashboard-muted"> It gets no events until it is enabled again.</span> : null}
            </dd>
            <dt>Added</dt>
            <dd>{endpoint.createdAt.toLocaleString()}</dd>
            <dt>Endpoint id</dt>
            <dd>
              <code>{endpoint.id}</code>
            </dd>
          </dl>
          {toggle.isError ? (
            <p role="alert" className="dashboard-error">
              Could not {endpoint.disabled ? "enable" : "disable"} the endpoint: {toggle.error.message}
            </p>
          ) : null}
          <div className="dashboard-actions">
            <button type="button" className="dashboard-secondary" onClick={() => setEditing(true)}>
              Edit endpoint
            </button>
            <button type="button" className="dashboard-secondary" disabled={toggle.isPending} onClick={() => toggle.mutate()}>
              {toggle.isPending ? "Saving…" : endpoint.disabled ? "Enable endpoint" : "Disable endpoint"}
            </button>
            <button type="button" className="dashboard-danger" onClick={() => remove.ask()}>
              Delete endpoint
            </button>
          </div>
        </>
      )}
      <ConfirmDialog {...remove.dialog} title="Delete this endpoint?" confirmLabel="Delete endpoint">
        <p>
          <span className="webhooks-url">{endpoint.url}</span> will get no more events, and its delivery history is deleted with it. This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
