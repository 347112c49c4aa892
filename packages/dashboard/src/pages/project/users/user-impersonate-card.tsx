import { constants } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { FailureAlert } from "../../../components/failure-alert.js";
import { useProjectAdmin } from "../../../project-admin.js";
import { userPartKey } from "./user-queries.js";

/** How long an impersonation session lasts: long enough to look around, short enough not to linger. */
const IMPERSONATION_MILLIS = 60 * 60 * 1000;

/**
 * Impersonation: a new session of the user, marked as an impersonation (listed to admins only). The dashboard
 * cannot sign in to the project's app on its own origin, so, as the protocol's reference dashboard does, it
 * hands over a line to run in the browser console of the app: it stores the session's refresh token in the
 * app's cookie (`stack-refresh-<project id>`, where the client library looks for it) and reloads the page.
 */
export function UserImpersonateCard({ projectId, userId }: { projectId: string; userId: string }) {
  const admin = useProjectAdmin(projectId);
  const queryClient = useQueryClient();
  const id = useId();
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const impersonate = useMutation({
    mutationFn: () => admin.createSession({ userId, isImpersonation: true, expiresInMillis: IMPERSONATION_MILLIS }),
    onSuccess: async () => {
      setCopied(null);
      await queryClient.invalidateQueries({ queryKey: userPartKey(projectId, userId, "sessions") });
    },
  });
  const snippet = impersonate.data ? consoleSnippet(projectId, impersonate.data.refreshToken) : null;

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Impersonate</h2>
      <p>
        See your app as this user sees it. This creates a session of the user that lasts one hour; it shows under Sessions as an
        impersonation, and you can revoke it there.
      </p>
      <button type="button" disabled={impersonate.isPending} onClick={() => impersonate.mutate()}>
        {impersonate.isPending ? "Creating session…" : "Impersonate this user"}
      </button>
      <FailureAlert action="create the session" error={impersonate.error} />
      {snippet ? (
        <div className="dashboard-form">
          <p role="status">Impersonation session created.</p>
          <p>
            Open your app in a browser, open the developer console on its page and run the code below. The app then reloads signed in as
            this user, replacing whoever was signed in there. Anyone with this code can act as the user until the session ends: do not share it.
          </p>
          <div className="dashboard-field">
            <label htmlFor={`${id}-snippet`}>Code to run in your app's console</label>
            <textarea id={`${id}-snippet`} className="users-secret" readOnly value={snippet} onFocus={(event) => event.currentTarget.select()} />
          </div>
          <div className="dashboard-actions">
            <button type="button" className="dashboard-secondary" onClick={() => void copy(snippet)}>
              Copy code
            </button>
          </div>
          {copied === "yes" ? <p role="status">Copied.</p> : null}
          {copied === "failed" ? (
            <p role="alert" className="dashboard-error">
              The browser did not allow copying: select the code and copy it yourself.
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function consoleSnippet(projectId: string, refreshToken: string): string {
  const cookie = `${constants.refreshTokenCookieName(projectId)}=${refreshToken}; path=/; max-age=${IMPERSONATION_MILLIS / 1000}; samesite=lax`;
  return `document.cookie = ${JSON.stringify(cookie)}; location.reload();`;
}
