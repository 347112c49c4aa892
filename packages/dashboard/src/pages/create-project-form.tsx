import { useApp } from "@latchkey/react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { FailureAlert } from "../components/failure-alert.js";
import { ProjectFields } from "../project-fields.js";
import { projectCreateForm, type ProjectCreateInput, type ProjectCreateValues } from "../project-form.js";
import { ownedProjectsKey } from "../queries.js";
import { useCheckedInput } from "../use-checked-input.js";

const EMPTY: ProjectCreateInput = { displayName: "", description: "" };

/** Creates a project owned by the owner's selected team; the list above reloads when it is made. */
export function CreateProjectForm({ userId, ownerTeamId }: { userId: string; ownerTeamId: string }) {
  const app = useApp();
  const queryClient = useQueryClient();
  const id = useId();
  const { input, setInput, errors, submitWith } = useCheckedInput(projectCreateForm, EMPTY);
  const create = useMutation({
    mutationFn: (values: ProjectCreateValues) => app.createProject({ ...values, ownerTeamId }),
    onSuccess: async () => {
      setInput(EMPTY);
      await queryClient.invalidateQueries({ queryKey: ownedProjectsKey(userId) });
    },
  });

  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Create a project</h2>
      <form onSubmit={submitWith((values) => create.mutate(values))} noValidate className="dashboard-form">
        <ProjectFields id={id} input={input} errors={errors} onChange={setInput} />
        <FailureAlert action="create the project" error={create.error} />
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create project"}
        </button>
      </form>
    </section>
  );
}
