import type { UseMutationResult } from "@tanstack/react-query";
import { useId, useState, type ReactNode } from "react";
import { ConfirmDialog } from "./confirm-dialog.js";

/**
 * The card at the bottom of a page that deletes its subject (a project, a team, a user): what is lost, a
 * danger button, and a dialog where the subject's name must be typed first. `remove` does the deleting (and
 * leaves the page when it is done); a failure shows in the dialog, to retry or cancel.
 */
export function DeleteCard({
  title,
  children,
  actionLabel,
  confirmTitle,
  typeToConfirm,
  remove,
  failure,
}: {
  title: string;
  /** What deleting removes. */
  children: ReactNode;
  /** The button's label, on the card and in the dialog. */
  actionLabel: string;
  confirmTitle: string;
  typeToConfirm: string;
  remove: UseMutationResult<unknown, Error, void>;
  /** The dialog's message when deleting failed. */
  failure: (error: Error) => string;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <section className="dashboard-card dashboard-danger-zone" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
      <button type="button" className="dashboard-danger" onClick={() => (remove.reset(), setOpen(true))}>
        {actionLabel}
      </button>
      <ConfirmDialog
        open={open}
        title={confirmTitle}
        confirmLabel={actionLabel}
        typeToConfirm={typeToConfirm}
        busy={remove.isPending}
        error={remove.isError ? failure(remove.error) : null}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => setOpen(false) })}
        onCancel={() => setOpen(false)}
      >
        <p>This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}
