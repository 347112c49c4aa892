import type { ServerUser } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { errorMessage } from "../../../error-message.js";
import { useProjectAdmin } from "../../../project-admin.js";
import { DateTime, UserAvatar, VerifiedLabel, signInMethods, userName } from "./user-display.js";
import { displayNameForm } from "./user-forms.js";
import { userKey, usersKey } from "./user-queries.js";

/** Who the user is: name (editable), email, dates, ids and how they sign in. */
export function UserProfileCard({ projectId, user }: { projectId: string; user: ServerUser }) {
  const methods = signInMethods(user);
  return (
    <section className="dashboard-card" aria-labelledby="user-profile-title">
      <div className="users-profile-head">
        <UserAvatar user={user} size="large" />
        <h2 id="user-profile-title">{userName(user)}</h2>
      </div>
      <dl className="dashboard-facts">
        <dt>User id</dt>
        <dd>
          <code className="dashboard-code">{user.id}</code>
        </dd>
        <dt>Primary email</dt>
        <dd>
          {user.primaryEmail ? (
            <>
              {user.primaryEmail} <VerifiedLabel verified={user.primaryEmailVerified} />
            </>
          ) : (
            <span className="dashboard-muted">None</span>
          )}
        </dd>
        <dt>Signed up</dt>
        <dd>
          <DateTime value={user.signedUpAt} />
        </dd>
        <dt>Last active</dt>
        <dd>
          <DateTime value={user.lastActiveAt} />
        </dd>
        <dt>Sign-in methods</dt>
        <dd>{methods.length ? methods.join(", ") : <span className="dashboard-muted">None</span>}</dd>
        <dt>Two-factor</dt>
        <dd>{user.isMultiFactorRequired ? "On (authenticator app)" : "Off"}</dd>
        {user.selectedTeamId ? (
          <>
            <dt>Selected team id</dt>
            <dd>
              <code className="dashboard-code">{user.selectedTeamId}</code>
            </dd>
          </>
        ) : null}
        {user.isAnonymous ? (
          <>
            <dt>Anonymous</dt>
            <dd>Yes: signed up without an account, may upgrade later.</dd>
          </>
        ) : null}
      </dl>
      <DisplayNameForm projectId={projectId} user={user} />
    </section>
  );
}

function DisplayNameForm({ projectId, user }: { projectId: string; user: ServerUser }) {
  const admin = useProjectAdmin(projectId);
  const queryClient = useQueryClient();
  const id = useId();
  const [name, setName] = useState(user.displayName ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (displayName: string | null) => admin.updateUserById(user.id, { displayName }),
    onSuccess: async (updated) => {
      queryClient.setQueryData(userKey(projectId, user.id), updated);
      await queryClient.invalidateQueries({ queryKey: [...usersKey(projectId), "list"] });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    save.reset();
    const parsed = displayNameForm.safeParse({ displayName: name });
    setProblem(parsed.success ? null : (parsed.error.issues[0]?.message ?? "This name cannot be saved."));
    if (parsed.success) save.mutate(parsed.data.displayName);
  }

  return (
    <form className="dashboard-form" onSubmit={submit} noValidate>
      <div className="dashboard-field">
        <label htmlFor={`${id}-name`}>Display name</label>
        <input
          id={`${id}-name`}
          value={name}
          autoComplete="off"
          onChange={(event) => setName(event.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : `${id}-hint`}
        />
        {problem ? (
          <span id={`${id}-problem`} className="dashboard-error">
            {problem}
          </span>
        ) : (
          <span id={`${id}-hint`} className="dashboard-muted">
            Leave it blank to remove the name.
          </span>
        )}
      </div>
      <button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving…" : "Save name"}
      </button>
      {save.isError ? (
        <p role="alert" className="dashboard-error">
          Could not save the name: {errorMessage(save.error)}
        </p>
      ) : save.isSuccess ? (
        <p role="status">Name saved.</p>
      ) : null}
    </form>
  );
}
