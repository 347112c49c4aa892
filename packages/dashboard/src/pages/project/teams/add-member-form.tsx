import type { AdminApp, ServerTeamMember } from "@latchkey/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { FailureAlert } from "../../../components/failure-alert.js";
import { errorMessage } from "../../../error-message.js";
import { projectKey } from "../../../project-admin.js";
import { userLabel } from "./member-label.js";
import { isUserId } from "./team-forms.js";

/**
 * Adds a user to the team: a user id is added at once; anything else searches the project's users by name
 * and email, and each match has its own Add button.
 */
export function AddMemberForm({
  projectId,
  admin,
  teamId,
  members,
  onAdded,
}: {
  projectId: string;
  admin: AdminApp;
  teamId: string;
  members: ServerTeamMember[];
  onAdded: () => Promise<void>;
}) {
  const id = useId();
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [search, setSearch] = useState<string | null>(null);
  const matches = useQuery({
    queryKey: [...projectKey(projectId), "user-search", search],
    queryFn: () => admin.listUsers({ query: search!, limit: 10 }),
    enabled: search !== null,
  });
  const add = useMutation({
    mutationFn: (userId: string) => admin.addServerTeamMember(teamId, userId),
    onSuccess: async () => {
      setText("");
      setSearch(null);
      await onAdded();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const value = text.trim();
    if (!value) {
      setProblem("Enter a user id, or part of a name or email address to search for.");
      return;
    }
    setProblem(null);
    add.reset();
    if (isUserId(value)) {
      setSearch(null);
      add.mutate(value.toLowerCase());
    } else setSearch(value);
  }

  const memberIds = new Set(members.map((member) => member.userId));
  return (
    <form className="dashboard-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Add a member</h3>
      <div className="dashboard-inline-form">
        <div className="dashboard-field">
          <label htmlFor={`${id}-user`}>User id or email</label>
          <input
            id={`${id}-user`}
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${id}-user-note`}
            autoComplete="off"
          />
        </div>
        <button type="submit" disabled={add.isPending}>
          {add.isPending ? "Adding…" : "Add or search"}
        </button>
      </div>
      <span id={`${id}-user-note`} className={problem ? "dashboard-error" : "dashboard-muted"}>
        {problem ?? "The user joins with the project's team-member default permissions."}
      </span>
      <FailureAlert action="add the member" error={add.error} />
      {search !== null ? (
        matches.isPending ? (
          <p role="status">Searching users…</p>
        ) : matches.isError ? (
          <p role="alert" className="dashboard-error">
            Could not search the users: {errorMessage(matches.error)}
          </p>
        ) : matches.data.items.length === 0 ? (
          <p role="status">No user matches “{search}”.</p>
        ) : (
          <ul className="dashboard-list" aria-label="Matching users">
            {matches.data.items.map((user) => (
              <li key={user.id}>
                <span>
                  {userLabel(user)}
                  {user.primaryEmail && user.displayName ? <span className="dashboard-muted"> ({user.primaryEmail})</span> : null}
                </span>
                {memberIds.has(user.id) ? (
                  <span className="dashboard-muted">Already a member</span>
                ) : (
                  <button type="button" className="dashboard-small-button" disabled={add.isPending} onClick={() => add.mutate(user.id)} aria-label={`Add ${userLabel(user)}`}>
                    Add
                  </button>
                )}
              </li>
            ))}
          </ul>
        )
      ) : null}
    </form>
  );
}

