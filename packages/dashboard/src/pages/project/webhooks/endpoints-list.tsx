import type { WebhookEndpoint } from "@latchkey/core";
import { Link } from "@tanstack/react-router";
import { describeFilter } from "./endpoint-form.js";

/** The project's endpoints in a table (it scrolls inside its card on a phone); each URL opens the endpoint. */
export function EndpointsList({ projectId, endpoints }: { projectId: string; endpoints: WebhookEndpoint[] }) {
  return (
    <div className="dashboard-table-scroll">
      <table className="dashboard-table" aria-label="Webhook endpoints">
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Description</th>
            <th scope="col">Events</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {endpoints.map((endpoint) => (
            <tr key={endpoint.id}>
              <td className="webhooks-url">
                <Link to="/projects/$projectId/webhooks" params={{ projectId }} search={{ endpoint: endpoint.id }}>
                  {endpoint.url}
                </Link>
              </td>
              <td>{endpoint.description || <span className="dashboard-muted">None</span>}</td>
              <td>{describeFilter(endpoint.filterTypes)}</td>
              <td>
                <EndpointStatus disabled={endpoint.disabled} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function EndpointStatus({ disabled }: { disabled: boolean }) {
  return <span className={disabled ? "webhooks-badge webhooks-badge-off" : "webhooks-badge webhooks-badge-on"}>{disabled ? "Disabled" : "Enabled"}</span>;
}
