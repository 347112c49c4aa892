import { useId, type ReactNode } from "react";
import { useConfirmedAction } from "../use-confirmed-action.js";
import { ConfirmDialog } from "./confirm-dialog.js";

/**
 * The card at the bottom of a page that deletes its subject (a project, a team, a user): what is lost, a
 * danger button, and a dialog where the subject's name must be typed first. `remove` does the deleting and
 * `onDone` leaves the page; a failure shows in the dialog, to retry or cancel.
 */
export function DeleteCard({
  title,
  children,
  actionLabel,
  confirmTitle,
  typeToConfirm,
  remove,
  onDone,
  failure,
}: {
  title: string;
  /** What deleting removes. */
  children: ReactNode;
  /** The button's label, on the card and in the dialog. */
  actionLabel: string;
  confirmTitle: string;
  typeToConfirm: string;
  remove: () => Promise<unknown>;
  onDone: () => unknown;
  /** What failed, for the dialog's "Could not {failure}: …"; without it the server's message alone. */
  failure?: string;
}) {
  const id = useId();
  const deletion = useConfirmedAction({ action: remove, onDone, failure });
  return (
    <section className="dashboard-card dashboard-danger-zone" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
      <button type="button" className="dashboard-danger" onClick={() => deletion.ask()}>
        {actionLabel}
      </button>
      <ConfirmDialog {...deletion.dialog} title={confirmTitle} confirmLabel={actionLabel} typeToConfirm={typeToConfirm}>
        <p>This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}
