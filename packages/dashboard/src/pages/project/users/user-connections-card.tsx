import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../../../components/query-state.js";
import { SimpleTable } from "../../../components/simple-table.js";
import { adminProjectKey, useProjectAdmin } from "../../../project-admin.js";
import { DateTime } from "./user-display.js";
import { userPartKey } from "./user-queries.js";

/** The provider accounts (GitHub, Google, …) linked to the user. */
export function UserOAuthLinksCard({ projectId, userId }: { projectId: string; userId: string }) {
  const admin = useProjectAdmin(projectId);
  const links = useQuery({ queryKey: userPartKey(projectId, userId, "oauth-links"), queryFn: () => admin.listUserOAuthLinks(userId) });
  return (
    <section className="dashboard-card" aria-labelledby="user-oauth-title">
      <h2 id="user-oauth-title">Linked accounts</h2>
      <QueryState query={links} what="the user's linked accounts" isEmpty={(items) => items.length === 0} empty={<p>No provider accounts are linked to this user.</p>}>
        {(items) => (
          <SimpleTable
            columns={["Provider", "Account id", "Email", "Signs in"]}
            caption="Provider accounts linked to the user"
            region="Linked accounts (scrolls sideways on narrow screens)"
            className="users-table-medium"
          >
            {items.map((link) => (
              <tr key={link.id}>
                <td>{link.providerId}</td>
                <td>
                  <code className="dashboard-code">{link.accountId}</code>
                </td>
                <td>{link.email ?? <span className="dashboard-muted">None</span>}</td>
                <td>{link.allowSignIn ? "Yes" : "No"}</td>
              </tr>
            ))}
          </SimpleTable>
        )}
      </QueryState>
    </section>
  );
}

/** The user's API keys (only their last characters are ever shown again), when the project allows them. */
export function UserApiKeysCard({ projectId, userId }: { projectId: string; userId: string }) {
  const admin = useProjectAdmin(projectId);
  // The same query as the project layout's, so this reads the cached project.
  const project = useQuery({ queryKey: adminProjectKey(projectId), queryFn: () => admin.getAdminProject() });
  const enabled = project.data?.config.allow_user_api_keys === true;
  const keys = useQuery({ queryKey: userPartKey(projectId, userId, "api-keys"), queryFn: () => admin.listUserApiKeys(userId), enabled });
  return (
    <section className="dashboard-card" aria-labelledby="user-api-keys-title">
      <h2 id="user-api-keys-title">API keys</h2>
      {project.isSuccess && !enabled ? (
        <p>User API keys are turned off for this project (see Authentication).</p>
      ) : (
        <QueryState query={keys} what="the user's API keys" isEmpty={(items) => items.length === 0} empty={<p>This user has no API keys.</p>}>
          {(items) => (
            <SimpleTable
              columns={["Description", "Ends in", "Created", "Expires", "Status"]}
              caption="The user's API keys"
              region="API keys (scrolls sideways on narrow screens)"
              className="users-table-medium"
            >
              {items.map((key) => (
                <tr key={key.id}>
                  <td>{key.description}</td>
                  <td>
                    <code className="dashboard-code">…{key.value.lastFour}</code>
                  </td>
                  <td>
                    <DateTime value={key.createdAt} />
                  </td>
                  <td>{key.expiresAt ? <DateTime value={key.expiresAt} /> : "Never"}</td>
                  <td>{key.manuallyRevokedAt ? <>Revoked <DateTime value={key.manuallyRevokedAt} /></> : "Active"}</td>
                </tr>
              ))}
            </SimpleTable>
          )}
        </QueryState>
      )}
    </section>
  );
}
