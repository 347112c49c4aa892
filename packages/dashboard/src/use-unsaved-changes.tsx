import { useBlocker } from "@tanstack/react-router";
import { useCallback, type ReactNode } from "react";
import { ConfirmDialog } from "./components/confirm-dialog.js";

/**
 * Warns before an editor with unsaved edits is left. In the app (a link, another tab of the page, Back) the
 * router holds the navigation and the returned dialog asks: "Cancel" stays with the edits, the other button
 * goes on and drops them. Closing or reloading the page gets the browser's own question (`beforeunload`).
 * Render what it returns next to the editor; while nothing is unsaved it neither blocks nor shows anything.
 */
export function useUnsavedChanges(dirty: boolean): ReactNode {
  const shouldBlockFn = useCallback(() => dirty, [dirty]);
  const blocker = useBlocker({ shouldBlockFn, enableBeforeUnload: dirty, disabled: !dirty, withResolver: true });
  return (
    <ConfirmDialog
      open={blocker.status === "blocked"}
      title="Leave without saving?"
      confirmLabel="Leave and lose changes"
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    >
      <p>Your changes here are not saved yet. If you leave now, they are lost.</p>
    </ConfirmDialog>
  );
}
