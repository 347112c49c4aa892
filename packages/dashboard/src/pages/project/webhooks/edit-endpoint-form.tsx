import type { AdminApp, WebhookEndpoint } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { FailureAlert } from "../../../components/failure-alert.js";
import { QueryState } from "../../../components/query-state.js";
import { useCheckedInput } from "../../../use-checked-input.js";
import { EndpointFields } from "./endpoint-fields.js";
import { endpointForm, type EndpointFormValues } from "./endpoint-form.js";
import { useWebhookEventTypes, webhookKeys } from "./webhook-queries.js";

/** Changes an endpoint's URL, description, event filter and payload version; `onDone` closes the form (saved or cancelled). */
export function EditEndpointForm({
  projectId,
  admin,
  endpoint,
  onDone,
}: {
  projectId: string;
  admin: AdminApp;
  endpoint: WebhookEndpoint;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const eventTypes = useWebhookEventTypes(projectId, admin);
  const { input, setInput, errors, submitWith } = useCheckedInput(endpointForm, {
    url: endpoint.url,
    description: endpoint.description,
    filterTypes: endpoint.filterTypes ?? [],
    payloadVersion: endpoint.payloadVersion,
  });
  const save = useMutation({
    // No event type ticked: every event type (null clears the filter; left out, it would stay).
    mutationFn: (values: EndpointFormValues) =>
      admin.updateWebhookEndpoint(endpoint.id, {
        url: values.url,
        description: values.description,
        filterTypes: values.filterTypes ?? null,
        // Sent only when changed: it costs the endpoint's metadata being read first (core's updateWebhookEndpoint).
        ...(values.payloadVersion !== endpoint.payloadVersion && { payloadVersion: values.payloadVersion }),
      }),
    onSuccess: async (updated) => {
      queryClient.setQueryData(webhookKeys.endpoint(projectId, endpoint.id), updated);
      await queryClient.invalidateQueries({
        queryKey: webhookKeys.endpoints(projectId),
      });
      onDone();
    },
  });

  return (
    <QueryState query={eventTypes} what="the event types">
      {(types) => (
        <form onSubmit={submitWith((values) => save.mutate(values))} noValidate className="dashboard-form" aria-label="Edit the endpoint">
          <EndpointFields input={input} onChange={setInput} errors={errors} eventTypes={types} />
          <FailureAlert action="save the endpoint" error={save.error} />
          <div className="dashboard-actions">
            <button type="button" className="dashboard-secondary" onClick={onDone}>
              Cancel
            </button>
            <button type="submit" disabled={save.isPending}>
              {save.isPending ? "Saving…" : "Save changes"}
            </button>
          </div>
        </form>
      )}
    </QueryState>
  );
}
