import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../../../components/query-state.js";
import { useProjectAdmin } from "../../../project-admin.js";
import { DateTime } from "./user-display.js";
import { adminProjectKey, userPartKey } from "./user-queries.js";

/** The provider accounts (GitHub, Google, …) linked to the user. */
export function UserOAuthLinksCard({ projectId, userId }: { projectId: string; userId: string }) {
  const admin = useProjectAdmin(projectId);
  const links = useQuery({ queryKey: userPartKey(projectId, userId, "oauth-links"), queryFn: () => admin.listUserOAuthLinks(userId) });
  return (
    <section className="dashboard-card" aria-labelledby="user-oauth-title">
      <h2 id="user-oauth-title">Linked accounts</h2>
      <QueryState query={links} what="the user's linked accounts" isEmpty={(items) => items.length === 0} empty={<p>No provider accounts are linked to this user.</p>}>
        {(items) => (
          <div className="dashboard-table-scroll" tabIndex={0} role="region" aria-label="Linked accounts (scrolls sideways on narrow screens)">
            <table className="dashboard-table users-table-medium">
              <caption className="users-visually-hidden">Provider accounts linked to the user</caption>
              <thead>
                <tr>
                  <th scope="col">Provider</th>
                  <th scope="col">Account id</th>
                  <th scope="col">Email</th>
                  <th scope="col">Signs in</th>
                </tr>
              </thead>
              <tbody>
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
              </tbody>
            </table>
          </div>
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
            <div className="dashboard-table-scroll" tabIndex={0} role="region" aria-label="API keys (scrolls sideways on narrow screens)">
              <table className="dashboard-table users-table-medium">
                <caption className="users-visually-hidden">The user's API keys</caption>
                <thead>
                  <tr>
                    <th scope="col">Description</th>
                    <th scope="col">Ends in</th>
                    <th scope="col">Created</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
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
                </tbody>
              </table>
            </div>
          )}
        </QueryState>
      )}
    </section>
  );
}
