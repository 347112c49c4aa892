import type { AdminApp, WebhookEndpoint } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { QueryState } from "../../../components/query-state.js";
import { endpointForm, endpointFormErrors, type EndpointFormInput, type EndpointFormValues } from "./endpoint-form.js";
import { EndpointFields } from "./endpoint-fields.js";
import { useWebhookEventTypes, webhookKeys } from "./webhook-queries.js";

/** Changes an endpoint's URL, description and event filter; `onDone` closes the form (saved or cancelled). */
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
  const [input, setInput] = useState<EndpointFormInput>({
    url: endpoint.url,
    description: endpoint.description,
    filterTypes: endpoint.filterTypes ?? [],
  });
  const [errors, setErrors] = useState<ReturnType<typeof endpointFormErrors>>({});
  const save = useMutation({
    // No event type ticked: every event type (null clears the filter; left out, it would stay).
    mutationFn: (values: EndpointFormValues) =>
      admin.updateWebhookEndpoint(endpoint.id, {
        url: values.url,
        description: values.description,
        filterTypes: values.filterTypes ?? null,
      }),
    onSuccess: async (updated) => {
      queryClient.setQueryData(webhookKeys.endpoint(projectId, endpoint.id), updated);
      await queryClient.invalidateQueries({
        queryKey: webhookKeys.endpoints(projectId),
      });
      onDone();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = endpointForm.safeParse(input);
    setErrors(parsed.success ? {} : endpointFormErrors(parsed.error));
    if (parsed.success) save.mutate(parsed.data);
  }

  return (
    <QueryState query={eventTypes} what="the event types">
      {(types) => (
        <form onSubmit={submit} noValidate className="dashboard-form" aria-label="Edit the endpoint">
          <EndpointFields input={input} onChange={setInput} errors={errors} eventTypes={types} />
          {save.isError ? (
            <p role="alert" className="dashboard-error">
              Could not save the endpoint: {save.error.message}
            </p>
          ) : null}
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
