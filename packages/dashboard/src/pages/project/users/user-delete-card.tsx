import type { ServerUser } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { useProjectAdmin } from "../../../project-admin.js";
import { errorMessage } from "./error-message.js";
import { userName } from "./user-display.js";
import { userKey, usersKey } from "./user-queries.js";

/** Deletes the user for good (their sessions, emails and memberships with them), then goes back to the list. */
export function UserDeleteCard({ projectId, user }: { projectId: string; user: ServerUser }) {
  const admin = useProjectAdmin(projectId);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const remove = useMutation({
    mutationFn: () => admin.deleteUser(user.id),
    onSuccess: async () => {
      setOpen(false);
      // Leave first, so the page's own queries do not ask again for a user who is gone.
      await navigate({ to: "/projects/$projectId/users", params: { projectId } });
      queryClient.removeQueries({ queryKey: userKey(projectId, user.id) });
      await queryClient.invalidateQueries({ queryKey: usersKey(projectId) });
    },
  });
  const confirmText = user.primaryEmail ?? user.id;

  return (
    <section className="dashboard-card users-danger-zone" aria-labelledby="user-delete-title">
      <h2 id="user-delete-title">Delete user</h2>
      <p>Deleting a user removes them, their emails, sessions, linked accounts and team memberships. It cannot be undone.</p>
      <button type="button" className="dashboard-danger" onClick={() => (remove.reset(), setOpen(true))}>
        Delete user
      </button>
      <ConfirmDialog
        open={open}
        title={`Delete ${userName(user)}?`}
        confirmLabel="Delete user"
        typeToConfirm={confirmText}
        busy={remove.isPending}
        error={remove.isError ? `Could not delete the user: ${errorMessage(remove.error)}` : null}
        onConfirm={() => remove.mutate()}
        onCancel={() => setOpen(false)}
      >
        <p>This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}
