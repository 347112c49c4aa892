import type { AdminApp } from "@latchkey/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { useConfirmedAction } from "../../../use-confirmed-action.js";
import { webhookKeys } from "./webhook-queries.js";

/**
 * The endpoint's signing secret: hidden until asked for (it is read from the server only then), copied to the
 * clipboard, or rotated after a confirmation.
 */
export function SigningSecret({ projectId, admin, endpointId }: { projectId: string; admin: AdminApp; endpointId: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [revealed, setRevealed] = useState(false);
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const secret = useQuery({
    queryKey: webhookKeys.secret(projectId, endpointId),
    queryFn: () => admin.getWebhookEndpointSecret(endpointId),
    enabled: revealed,
    staleTime: Infinity,
  });
  const rotate = useConfirmedAction({
    action: () => admin.rotateWebhookEndpointSecret(endpointId),
    failure: "rotate the secret",
    onDone: async () => {
      setCopied(null);
      await queryClient.invalidateQueries({
        queryKey: webhookKeys.secret(projectId, endpointId),
      });
    },
  });

  async function copy() {
    try {
      const value = secret.data ?? (await admin.getWebhookEndpointSecret(endpointId));
      await navigator.clipboard.writeText(value);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <section className="dashboard-card" aria-labelledby="webhook-secret-title">
      <h2 id="webhook-secret-title">Signing secret</h2>
      <p className="dashboard-muted">
        Each delivery is signed with this secret (Svix's <code>webhook-signature</code> header). Verify it in your receiver, e.g. with the <code>svix</code>{" "}
        package's <code>Webhook</code> class, and keep the secret out of your source code.
      </p>
      {!revealed ? (
        <p>The secret is hidden.</p>
      ) : secret.isPending ? (
        <p role="status">Loading the secret…</p>
      ) : secret.isError ? (
        <p role="alert" className="dashboard-error">
          Could not load the secret: {secret.error.message}
        </p>
      ) : (
        <div className="dashboard-field webhooks-secret-field">
          <label htmlFor={`${id}-value`}>Secret value</label>
          <input id={`${id}-value`} className="webhooks-secret" readOnly value={secret.data} onFocus={(event) => event.currentTarget.select()} />
        </div>
      )}
      <div className="dashboard-actions">
        <button type="button" className="dashboard-secondary" onClick={() => setRevealed(!revealed)} aria-pressed={revealed}>
          {revealed ? "Hide secret" : "Reveal secret"}
        </button>
        <button type="button" className="dashboard-secondary" onClick={() => void copy()}>
          Copy secret
        </button>
        <button type="button" className="dashboard-danger" onClick={() => rotate.ask()}>
          Rotate secret
        </button>
      </div>
      <p role="status" className="dashboard-muted">
        {copied === "copied"
          ? "The secret was copied to the clipboard."
          : copied === "failed"
            ? "Could not copy: the browser did not allow it. Reveal the secret and copy it by hand."
            : ""}
        {rotate.mutation.isSuccess ? " A new secret was made; the old one keeps signing deliveries for 24 hours." : ""}
      </p>
      <ConfirmDialog {...rotate.dialog} title="Rotate the signing secret?" confirmLabel="Rotate secret">
        <p>
          The endpoint gets a new secret. Deliveries are signed with the old one too for the next 24 hours: update your receiver with the new secret before
          then.
        </p>
      </ConfirmDialog>
    </section>
  );
}
