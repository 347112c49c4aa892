import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "./error-message.js";

/**
 * "Confirm, then act": the item a destructive action waits on (a key to revoke, a member to remove; nothing
 * for an action on the page's own subject) and the mutation that acts on it once the person confirms.
 * `ask(item)` opens the dialog with a fresh start; spread `dialog` into a `ConfirmDialog`, which adds its
 * title, button label and words. The dialog shows why the action failed, to retry or cancel, and closes when
 * it succeeded, before `onDone` (e.g. refetching the list) runs.
 */
export function useConfirmedAction<Item = void, Result = unknown>({
  action,
  onDone,
  failure,
}: {
  action: (item: Item) => Promise<Result>;
  onDone?: (item: Item) => unknown;
  /** What failed, in "Could not {failure}: …"; without it the dialog shows the server's message alone. */
  failure?: string;
}) {
  // Boxed, so that an item which is `undefined` (nothing to name) still counts as waiting.
  const [waiting, setWaiting] = useState<{ item: Item } | null>(null);
  const mutation = useMutation({
    mutationFn: action,
    onSuccess: async (_result, item) => {
      setWaiting(null);
      await onDone?.(item);
    },
  });
  const error = mutation.isError ? errorMessage(mutation.error) : null;
  return {
    /** The item waiting for confirmation, for the dialog's words. */
    pending: waiting ? waiting.item : null,
    ask: (item: Item) => {
      mutation.reset();
      setWaiting({ item });
    },
    mutation,
    dialog: {
      open: waiting !== null,
      busy: mutation.isPending,
      error: error !== null && failure ? `Could not ${failure}: ${error}` : error,
      onConfirm: () => {
        if (waiting) mutation.mutate(waiting.item);
      },
      onCancel: () => setWaiting(null),
    },
  };
}
