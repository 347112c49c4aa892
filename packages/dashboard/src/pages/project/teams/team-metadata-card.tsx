import type { AdminApp, ServerTeam } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { metadataText, metadataToText } from "./team-forms.js";
import { errorMessage, teamKeys } from "./team-queries.js";

const FIELDS = [
  { name: "clientMetadata", label: "Client metadata", hint: "Members read and change it from the app." },
  { name: "clientReadOnlyMetadata", label: "Client read-only metadata", hint: "Members read it; only servers change it." },
  { name: "serverMetadata", label: "Server metadata", hint: "Only servers read and change it." },
] as const;
type Field = (typeof FIELDS)[number]["name"];

/** The team's three metadata objects as JSON, each checked (valid JSON the server can store) before saving. */
export function TeamMetadataCard({ projectId, admin, team }: { projectId: string; admin: AdminApp; team: ServerTeam }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [texts, setTexts] = useState<Record<Field, string>>(() => ({
    clientMetadata: metadataToText(team.clientMetadata),
    clientReadOnlyMetadata: metadataToText(team.clientReadOnlyMetadata),
    serverMetadata: metadataToText(team.serverMetadata),
  }));
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const save = useMutation({
    mutationFn: (values: Record<Field, unknown>) => admin.updateServerTeam(team.id, values),
    onSuccess: (updated) => queryClient.setQueryData(teamKeys.team(projectId, team.id), updated),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const values: Partial<Record<Field, unknown>> = {};
    const found: Partial<Record<Field, string>> = {};
    for (const { name } of FIELDS) {
      const parsed = metadataText.safeParse(texts[name]);
      if (parsed.success) values[name] = parsed.data;
      else found[name] = parsed.error.issues[0]?.message ?? "This is not valid JSON.";
    }
    setProblems(found);
    if (Object.keys(found).length === 0) save.mutate(values as Record<Field, unknown>);
  }

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Metadata</h2>
      <form className="dashboard-form teams-metadata" onSubmit={submit} noValidate>
        {FIELDS.map(({ name, label, hint }) => (
          <div className="dashboard-field" key={name}>
            <label htmlFor={`${id}-${name}`}>{label}</label>
            <textarea
              id={`${id}-${name}`}
              value={texts[name]}
              spellCheck={false}
              onChange={(event) => setTexts({ ...texts, [name]: event.target.value })}
              aria-invalid={problems[name] ? true : undefined}
              aria-describedby={`${id}-${name}-note`}
            />
            <span id={`${id}-${name}-note`} className={problems[name] ? "dashboard-error" : "dashboard-muted"}>
              {problems[name] ?? `${hint} Any JSON value; leave it empty for none.`}
            </span>
          </div>
        ))}
        {save.isError ? (
          <p role="alert" className="dashboard-error">
            Could not save the metadata: {errorMessage(save.error)}
          </p>
        ) : null}
        {save.isSuccess && !save.isPending ? <p role="status">Metadata saved.</p> : null}
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save metadata"}
        </button>
      </form>
    </section>
  );
}
