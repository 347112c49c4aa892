import type { ServerUser } from "@latchkey/core";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { DeleteCard } from "../../../components/delete-card.js";
import { useProjectAdmin } from "../../../project-admin.js";
import { userName } from "./user-display.js";
import { userKey, usersKey } from "./user-queries.js";

/** Deletes the user for good (their sessions, emails and memberships with them), then goes back to the list. */
export function UserDeleteCard({ projectId, user }: { projectId: string; user: ServerUser }) {
  const admin = useProjectAdmin(projectId);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <DeleteCard
      title="Delete user"
      actionLabel="Delete user"
      confirmTitle={`Delete ${userName(user)}?`}
      typeToConfirm={user.primaryEmail ?? user.id}
      remove={() => admin.deleteUser(user.id)}
      onDone={async () => {
        // Leave first, so the page's own queries do not ask again for a user who is gone.
        await navigate({ to: "/projects/$projectId/users", params: { projectId } });
        queryClient.removeQueries({ queryKey: userKey(projectId, user.id) });
        await queryClient.invalidateQueries({ queryKey: usersKey(projectId) });
      }}
      failure="delete the user"
    >
      <p>Deleting a user removes them, their emails, sessions, linked accounts and team memberships. It cannot be undone.</p>
    </DeleteCard>
  );
}
