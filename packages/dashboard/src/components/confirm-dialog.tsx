import { useEffect, useId, useRef, useState, type ReactNode } from "react";

/**
 * Asks before a destructive action, in a modal `<dialog>` (focus is trapped and Escape cancels, by the
 * browser). With `typeToConfirm`, the confirm button stays disabled until that text is typed exactly (e.g. a
 * project's name before it is deleted).
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  typeToConfirm,
  busy = false,
  error,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  typeToConfirm?: string;
  busy?: boolean;
  /** Shown in the dialog when the action failed, so the person can retry or cancel. */
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [typed, setTyped] = useState("");
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      setTyped("");
      element.showModal();
    } else if (!open && element.open) element.close();
  }, [open]);
  const confirmable = !busy && (typeToConfirm === undefined || typed === typeToConfirm);
  return (
    <dialog ref={dialog} className="dashboard-dialog" aria-labelledby={`${id}-title`} onCancel={(event) => (event.preventDefault(), onCancel())}>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          if (confirmable) onConfirm();
        }}
      >
        <h2 id={`${id}-title`}>{title}</h2>
        {children}
        {typeToConfirm !== undefined ? (
          <div className="dashboard-field">
            <label htmlFor={`${id}-typed`}>
              Type <strong>{typeToConfirm}</strong> to confirm
            </label>
            <input id={`${id}-typed`} value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
          </div>
        ) : null}
        {error ? (
          <p role="alert" className="dashboard-error">
            {error}
          </p>
        ) : null}
        <div className="dashboard-actions">
          <button type="button" className="dashboard-secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="dashboard-danger" disabled={!confirmable}>
            {busy ? "Working…" : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
