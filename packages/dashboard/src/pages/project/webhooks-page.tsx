import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { QueryState } from "../../components/query-state.js";
import { useProjectAdmin, useProjectId } from "../../project-admin.js";
import { AddEndpointForm } from "./webhooks/add-endpoint-form.js";
import { EndpointDetail } from "./webhooks/endpoint-detail.js";
import { EndpointsList } from "./webhooks/endpoints-list.js";
import { webhookKeys } from "./webhooks/webhook-queries.js";
import "./webhooks/webhooks.css";

/**
 * The project's Webhooks page (issue 20): its endpoints, and adding one. `?endpoint=<id>` opens one endpoint
 * (its secret, test events, deliveries), so an endpoint has an address of its own.
 */
export function WebhooksPage() {
  const projectId = useProjectId();
  const { endpoint } = useSearch({ strict: false }) as { endpoint?: string };
  return endpoint ? <EndpointDetail key={endpoint} projectId={projectId} endpointId={endpoint} /> : <EndpointsOverview projectId={projectId} />;
}

function EndpointsOverview({ projectId }: { projectId: string }) {
  const admin = useProjectAdmin(projectId);
  const navigate = useNavigate();
  const endpoints = useQuery({
    queryKey: webhookKeys.endpoints(projectId),
    queryFn: () => admin.listWebhookEndpoints(),
  });
  return (
    <>
      <section className="dashboard-card" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Webhooks</h2>
        <p className="dashboard-muted">
          Endpoints get a signed POST request for each event of the project (a user or team created, changed or deleted, and more). Failed deliveries are
          retried for about a day.
        </p>
        <QueryState query={endpoints} what="the webhook endpoints" isEmpty={(list) => list.length === 0} empty={<p>No endpoints yet. Add one below.</p>}>
          {(list) => <EndpointsList projectId={projectId} endpoints={list} />}
        </QueryState>
      </section>
      <AddEndpointForm
        projectId={projectId}
        admin={admin}
        onAdded={(added) =>
          void navigate({
            to: "/projects/$projectId/webhooks",
            params: { projectId },
            search: { endpoint: added.id },
          })
        }
      />
    </>
  );
}
