import type { AdminApp, EmailPreview as RenderedEmail, EmailPreviewRequest } from "@latchkey/core";
import { useEffect, useRef, useState } from "react";

/** How long typing must pause before the preview is rendered again. */
const PREVIEW_DELAY_MS = 400;

export interface PreviewState {
  /** The last preview that rendered; kept while the code does not render, so the mail stays in view. */
  preview: RenderedEmail | null;
  /** Why the current code does not render (the server's compile or runtime error), null when it does. */
  error: string | null;
  rendering: boolean;
}

/**
 * Renders `request` on the server (`renderEmailPreview`) a moment after it last changed. Answers that arrive
 * after a newer request was sent are dropped, so the preview always matches what is in the editor.
 */
export function useEmailPreview(admin: AdminApp, request: EmailPreviewRequest): PreviewState {
  const [state, setState] = useState<PreviewState>({ preview: null, error: null, rendering: true });
  const latest = useRef(0);
  const requestJson = JSON.stringify(request);

  useEffect(() => {
    const serial = ++latest.current;
    setState((previous) => ({ ...previous, rendering: true }));
    const timer = setTimeout(() => {
      admin.renderEmailPreview(JSON.parse(requestJson) as EmailPreviewRequest).then(
        (preview) => {
          if (serial === latest.current) setState({ preview, error: null, rendering: false });
        },
        (error: unknown) => {
          if (serial === latest.current) setState((previous) => ({ preview: previous.preview, error: error instanceof Error ? error.message : String(error), rendering: false }));
        },
      );
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [admin, requestJson]);

  return state;
}

/**
 * The rendered mail: its subject, and its HTML in a sandboxed frame (no scripts, no same-origin access), with
 * the render error above it when the code in the editor does not render.
 */
export function EmailPreviewPane({ state, name }: { state: PreviewState; name: string }) {
  const { preview, error, rendering } = state;
  return (
    <section className="emails-preview" aria-label={`Preview of ${name}`}>
      <h3>Preview</h3>
      <div aria-live="polite">
        {error ? (
          <div className="emails-render-error" role="alert">
            <p className="dashboard-error">This code does not render{preview ? "; the preview shows the last version that did" : ""}:</p>
            <pre className="dashboard-code">{error}</pre>
          </div>
        ) : null}
      </div>
      {preview ? (
        <>
          <p className="emails-subject">
            <span className="dashboard-muted">Subject: </span>
            {preview.subject || <span className="dashboard-muted">(none)</span>}
          </p>
          <iframe className="emails-preview-frame" title={`Rendered email: ${name}`} sandbox="" srcDoc={preview.html} />
        </>
      ) : rendering ? (
        <p role="status">Rendering the preview…</p>
      ) : null}
    </section>
  );
}
