import type { ServerUser, ServerUserUpdate } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { MetadataField } from "../../../components/metadata-field.js";
import { errorMessage } from "../../../error-message.js";
import { metadataText, parseMetadata } from "../../../metadata-json.js";
import { useProjectAdmin } from "../../../project-admin.js";
import { userKey } from "./user-queries.js";

type MetadataField = "clientMetadata" | "clientReadOnlyMetadata" | "serverMetadata";

const EDITORS: { field: MetadataField; label: string; hint: string }[] = [
  { field: "clientMetadata", label: "Client metadata", hint: "The user's app can read and change it." },
  { field: "clientReadOnlyMetadata", label: "Client read-only metadata", hint: "The user's app can read it; only your server can change it." },
  { field: "serverMetadata", label: "Server metadata", hint: "Only your server can read and change it." },
];

/** The user's three metadata objects, each edited as JSON and checked before it is sent. */
export function UserMetadataCard({ projectId, user }: { projectId: string; user: ServerUser }) {
  return (
    <section className="dashboard-card" aria-labelledby="user-metadata-title">
      <h2 id="user-metadata-title">Metadata</h2>
      <p className="dashboard-muted">JSON your app keeps about the user. Leave a box blank for none.</p>
      <div className="dashboard-form">
        {EDITORS.map((editor) => (
          <MetadataEditor key={editor.field} projectId={projectId} user={user} {...editor} />
        ))}
      </div>
    </section>
  );
}

function MetadataEditor({ projectId, user, field, label, hint }: { projectId: string; user: ServerUser; field: MetadataField; label: string; hint: string }) {
  const admin = useProjectAdmin(projectId);
  const queryClient = useQueryClient();
  const id = useId();
  const [text, setText] = useState(() => metadataText(user[field]));
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (value: unknown) => admin.updateUserById(user.id, { [field]: value } satisfies ServerUserUpdate),
    onSuccess: (updated) => queryClient.setQueryData(userKey(projectId, user.id), updated),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    save.reset();
    const parsed = parseMetadata(text);
    setProblem(parsed.ok ? null : parsed.problem);
    if (parsed.ok) save.mutate(parsed.value);
  }

  return (
    <form className="dashboard-form" onSubmit={submit} noValidate>
      <MetadataField id={`${id}-json`} label={label} hint={hint} text={text} problem={problem} onChange={setText} />
      {save.isError ? (
        <p role="alert" className="dashboard-error">
          Could not save the {label.toLowerCase()}: {errorMessage(save.error)}
        </p>
      ) : save.isSuccess ? (
        <p role="status">{label} saved.</p>
      ) : null}
      <button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving…" : `Save ${label.toLowerCase()}`}
      </button>
    </form>
  );
}
