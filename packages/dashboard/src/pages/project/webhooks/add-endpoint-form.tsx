import type { AdminApp, WebhookEndpoint } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { FailureAlert } from "../../../components/failure-alert.js";
import { QueryState } from "../../../components/query-state.js";
import { useCheckedInput } from "../../../use-checked-input.js";
import { EndpointFields } from "./endpoint-fields.js";
import { endpointForm, type EndpointFormInput, type EndpointFormValues } from "./endpoint-form.js";
import { useWebhookEventTypes, webhookKeys } from "./webhook-queries.js";

const EMPTY: EndpointFormInput = { url: "", description: "", filterTypes: [], payloadVersion: "2.8.41" };

/** Adds an endpoint; once added, the page opens it (where its signing secret is). */
export function AddEndpointForm({ projectId, admin, onAdded }: { projectId: string; admin: AdminApp; onAdded: (endpoint: WebhookEndpoint) => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const eventTypes = useWebhookEventTypes(projectId, admin);
  const { input, setInput, errors, submitWith } = useCheckedInput(endpointForm, EMPTY);
  const create = useMutation({
    mutationFn: (values: EndpointFormValues) =>
      admin.createWebhookEndpoint({
        url: values.url,
        description: values.description,
        filterTypes: values.filterTypes ?? undefined,
        payloadVersion: values.payloadVersion,
      }),
    onSuccess: async (endpoint) => {
      setInput(EMPTY);
      await queryClient.invalidateQueries({
        queryKey: webhookKeys.endpoints(projectId),
      });
      onAdded(endpoint);
    },
  });

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add an endpoint</h2>
      <QueryState query={eventTypes} what="the event types">
        {(types) => (
          <form onSubmit={submitWith((values) => create.mutate(values))} noValidate className="dashboard-form">
            <EndpointFields input={input} onChange={setInput} errors={errors} eventTypes={types} />
            <FailureAlert action="add the endpoint" error={create.error} />
            <button type="submit" disabled={create.isPending}>
              {create.isPending ? "Adding…" : "Add endpoint"}
            </button>
          </form>
        )}
      </QueryState>
    </section>
  );
}
