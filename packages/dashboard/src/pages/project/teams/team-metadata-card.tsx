import type { AdminApp, ServerTeam } from "@latchkey/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { FailureAlert } from "../../../components/failure-alert.js";
import { MetadataField } from "../../../components/metadata-field.js";
import { metadataText, parseMetadata } from "../../../metadata-json.js";
import { teamKeys } from "./team-queries.js";

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
    clientMetadata: metadataText(team.clientMetadata),
    clientReadOnlyMetadata: metadataText(team.clientReadOnlyMetadata),
    serverMetadata: metadataText(team.serverMetadata),
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
      const parsed = parseMetadata(texts[name]);
      if (parsed.ok) values[name] = parsed.value;
      else found[name] = parsed.problem;
    }
    setProblems(found);
    if (Object.keys(found).length === 0) save.mutate(values as Record<Field, unknown>);
  }

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Metadata</h2>
      <form className="dashboard-form" onSubmit={submit} noValidate>
        {FIELDS.map(({ name, label, hint }) => (
          <MetadataField
            key={name}
            id={`${id}-${name}`}
            label={label}
            hint={`${hint} Any JSON value; leave it empty for none.`}
            text={texts[name]}
            problem={problems[name]}
            onChange={(text) => setTexts({ ...texts, [name]: text })}
          />
        ))}
        <FailureAlert action="save the metadata" error={save.error} />
        {save.isSuccess && !save.isPending ? <p role="status">Metadata saved.</p> : null}
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save metadata"}
        </button>
      </form>
    </section>
  );
}
