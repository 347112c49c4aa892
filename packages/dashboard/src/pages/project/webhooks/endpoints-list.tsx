import type { WebhookEndpoint } from "@latchkey/core";
import { Link } from "@tanstack/react-router";
import { SimpleTable } from "../../../components/simple-table.js";
import { describeFilter } from "./endpoint-form.js";

/** The project's endpoints in a table (it scrolls inside its card on a phone); each URL opens the endpoint. */
export function EndpointsList({ projectId, endpoints }: { projectId: string; endpoints: WebhookEndpoint[] }) {
  return (
    <SimpleTable columns={["URL", "Description", "Events", "Status"]} label="Webhook endpoints">
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
    </SimpleTable>
  );
}

export function EndpointStatus({ disabled }: { disabled: boolean }) {
  return <span className={disabled ? "webhooks-badge webhooks-badge-off" : "webhooks-badge webhooks-badge-on"}>{disabled ? "Disabled" : "Enabled"}</span>;
}
