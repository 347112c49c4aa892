import type { AdminApp, PermissionDefinition } from "@latchkey/core";
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { FailureAlert } from "../../../components/failure-alert.js";
import { QueryState } from "../../../components/query-state.js";
import { adminProjectKey } from "../../../project-admin.js";
import { usePermissionDefinitions } from "./permission-scope-card.js";

/** The project config's three default lists (SPEC.md §7): who gets which permissions without being granted them. */
const DEFAULTS = [
  {
    field: "team_creator_default_permissions",
    title: "Team creators",
    scope: "team",
    hint: "Granted in a team to the user who creates it.",
  },
  {
    field: "team_member_default_permissions",
    title: "Team members",
    scope: "team",
    hint: "Granted in a team to everyone who joins it (added, or by invitation).",
  },
  {
    field: "user_default_permissions",
    title: "Users",
    scope: "project",
    hint: "Granted across the project to every user.",
  },
] as const;
type DefaultsField = (typeof DEFAULTS)[number]["field"];

export function PermissionDefaultsCard({ projectId, admin }: { projectId: string; admin: AdminApp }) {
  const id = useId();
  const project = useQuery({ queryKey: adminProjectKey(projectId), queryFn: () => admin.getAdminProject() });
  const team = usePermissionDefinitions(projectId, admin, "team");
  const projectScope = usePermissionDefinitions(projectId, admin, "project");
  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Default permissions</h2>
      <QueryState query={project} what="the project's defaults">
        {(loaded) => (
          <div className="dashboard-form">
            {DEFAULTS.map((group) => (
              <DefaultsForm
                key={group.field}
                projectId={projectId}
                admin={admin}
                field={group.field}
                title={group.title}
                hint={group.hint}
                selected={loaded.config[group.field].map((p) => p.id)}
                definitions={group.scope === "team" ? team : projectScope}
              />
            ))}
          </div>
        )}
      </QueryState>
    </section>
  );
}

function DefaultsForm({
  projectId,
  admin,
  field,
  title,
  hint,
  selected,
  definitions,
}: {
  projectId: string;
  admin: AdminApp;
  field: DefaultsField;
  title: string;
  hint: string;
  selected: string[];
  definitions: UseQueryResult<PermissionDefinition[]>;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string[]>(selected);
  // When the saved list changes (saved here, or a permission renamed or deleted), the boxes follow it.
  const savedKey = selected.join(",");
  const [shownKey, setShownKey] = useState(savedKey);
  if (shownKey !== savedKey) {
    setShownKey(savedKey);
    setChosen(selected);
  }
  const save = useMutation({
    mutationFn: (ids: string[]) => admin.updateAdminProject({ config: { [field]: ids.map((permissionId) => ({ id: permissionId })) } }),
    onSuccess: (updated) => queryClient.setQueryData(adminProjectKey(projectId), updated),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate(chosen);
  }
  return (
    <form className="dashboard-form" onSubmit={submit} aria-labelledby={`${id}-title`} aria-describedby={`${id}-hint`}>
      <h3 id={`${id}-title`}>{title}</h3>
      <p id={`${id}-hint`} className="dashboard-muted">
        {hint}
      </p>
      <QueryState query={definitions} what="the permissions" isEmpty={(list) => list.length === 0} empty={<p>There are no permissions of this kind yet.</p>}>
        {(list) => (
          <fieldset className="teams-checkboxes">
            <legend>Default permissions of {title.toLowerCase()}</legend>
            {list.map((definition) => (
              <label key={definition.id}>
                <input
                  type="checkbox"
                  checked={chosen.includes(definition.id)}
                  onChange={(event) => setChosen(event.target.checked ? [...chosen, definition.id] : chosen.filter((p) => p !== definition.id))}
                />
                <code className="dashboard-code">{definition.id}</code>
              </label>
            ))}
          </fieldset>
        )}
      </QueryState>
      <FailureAlert action="save the defaults" error={save.error} />
      {save.isSuccess && !save.isPending ? <p role="status">Defaults of {title.toLowerCase()} saved.</p> : null}
      <button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving…" : `Save defaults of ${title.toLowerCase()}`}
      </button>
    </form>
  );
}
