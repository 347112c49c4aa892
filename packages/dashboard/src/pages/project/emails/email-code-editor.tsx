import type { AdminApp, EmailPreviewRequest, EmailThemeSummary } from "@latchkey/core";
import { useMutation } from "@tanstack/react-query";
import { lazy, Suspense, useId, useState, type FormEvent, type ReactNode } from "react";
import { z } from "zod";
import { useUnsavedChanges } from "../../../use-unsaved-changes.js";
import { emailNameForm } from "./email-item-list.js";
import { EmailPreviewPane, useEmailPreview } from "./email-preview.js";
import { ThemeSelect } from "./theme-select.js";

// CodeMirror is downloaded only when code is edited, not with the rest of the Emails page.
const TsxEditor = lazy(() => import("./tsx-editor.js"));

/** What an editor saves: the name, the TSX source and (templates and drafts) the theme, as a select value. */
export interface EmailCodeValues {
  displayName: string;
  tsxSource: string;
  themeValue: string;
}

const codeForm = z.object({
  displayName: emailNameForm,
  tsxSource: z.string().trim().min(1, "The code cannot be empty."),
  themeValue: z.string(),
});

/**
 * Edits one theme, template or draft: its name, its theme (unless it is a theme), its TSX in the code editor,
 * and a live preview of the mail it renders. Save sends it to the server, which may refuse code that does not
 * render; `actions` adds buttons of the item's own (delete), `children` what goes below (sending a draft).
 */
export function EmailCodeEditor({
  admin,
  kind,
  initial,
  themes,
  previewRequest,
  onSave,
  actions,
  children,
}: {
  admin: AdminApp;
  /** "theme", "template" or "draft", for labels and messages. */
  kind: string;
  initial: EmailCodeValues;
  /** The themes to choose from; undefined for a theme itself, which has none. */
  themes?: EmailThemeSummary[];
  previewRequest: (values: EmailCodeValues) => EmailPreviewRequest;
  onSave: (values: EmailCodeValues) => Promise<unknown>;
  actions?: ReactNode;
  /** What goes below the editor; `changed` says whether there are unsaved changes. */
  children?: (changed: boolean) => ReactNode;
}) {
  const id = useId();
  const [values, setValues] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const [nameError, setNameError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const preview = useEmailPreview(admin, previewRequest(values));
  const save = useMutation({
    mutationFn: (next: EmailCodeValues) => onSave(next),
    onSuccess: (_result, next) => setSaved(next),
  });
  const changed = values.displayName !== saved.displayName || values.tsxSource !== saved.tsxSource || values.themeValue !== saved.themeValue;
  const leavePrompt = useUnsavedChanges(changed);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = codeForm.safeParse(values);
    const issues = parsed.success ? [] : parsed.error.issues;
    setNameError(issues.find((issue) => issue.path[0] === "displayName")?.message ?? null);
    setFormError(issues.find((issue) => issue.path[0] === "tsxSource")?.message ?? null);
    if (!parsed.success) return;
    const next = { ...values, displayName: parsed.data.displayName };
    setValues(next);
    save.mutate(next);
  }

  return (
    <div className="emails-editor">
      <form onSubmit={submit} noValidate className="dashboard-form emails-editor-form">
        <div className="dashboard-field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            value={values.displayName}
            onChange={(event) => setValues({ ...values, displayName: event.target.value })}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? `${id}-name-error` : undefined}
          />
          {nameError ? (
            <span id={`${id}-name-error`} className="dashboard-error">
              {nameError}
            </span>
          ) : null}
        </div>
        {themes ? <ThemeSelect id={`${id}-theme`} value={values.themeValue} onChange={(themeValue) => setValues({ ...values, themeValue })} themes={themes} /> : null}
        <div className="dashboard-field">
          <span>TSX code</span>
          <Suspense fallback={<p role="status">Loading the code editor…</p>}>
            <TsxEditor initialValue={initial.tsxSource} label={`TSX code of the ${kind}`} onChange={(tsxSource) => setValues((current) => ({ ...current, tsxSource }))} />
          </Suspense>
        </div>
        {formError ? (
          <p role="alert" className="dashboard-error">
            {formError}
          </p>
        ) : null}
        {save.isError ? (
          <p role="alert" className="dashboard-error">
            Could not save the {kind}: {save.error.message}
          </p>
        ) : null}
        <div className="dashboard-actions emails-editor-actions">
          <span role="status" className="dashboard-muted">
            {save.isPending ? "Saving…" : changed ? "Unsaved changes." : save.isSuccess ? "Saved." : ""}
          </span>
          {actions}
          <button type="submit" disabled={save.isPending}>
            Save {kind}
          </button>
        </div>
      </form>
      <EmailPreviewPane state={preview} name={values.displayName || `the ${kind}`} />
      {children?.(changed)}
      {leavePrompt}
    </div>
  );
}
