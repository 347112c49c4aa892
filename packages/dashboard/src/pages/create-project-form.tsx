import { useApp } from "@latchkey/react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useId } from "react";
import { FailureAlert } from "../components/failure-alert.js";
import { projectAdmin } from "../project-admin.js";
import { ProjectFields } from "../project-fields.js";
import { projectCreateForm, type ProjectCreateInput, type ProjectCreateValues } from "../project-form.js";
import { ownedProjectsKey } from "../queries.js";
import { useCheckedInput } from "../use-checked-input.js";
import { createAppKeys, rememberNewAppKeys } from "./project/get-started/app-keys.js";

const EMPTY: ProjectCreateInput = { displayName: "", description: "" };

/**
 * Creates a project owned by the owner's selected team, with the key set its app needs, and opens its Get
 * started page, which shows the keys (the secret one this once). Should the keys fail, the project is still
 * made and that page offers to make them.
 */
export function CreateProjectForm({ userId, ownerTeamId }: { userId: string; ownerTeamId: string }) {
  const app = useApp();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const id = useId();
  const { input, setInput, errors, submitWith } = useCheckedInput(projectCreateForm, EMPTY);
  const create = useMutation({
    mutationFn: async (values: ProjectCreateValues) => {
      const project = await app.createProject({ ...values, ownerTeamId });
      const keySet = await createAppKeys(projectAdmin(app, project.id)).catch(() => null);
      return { project, keySet };
    },
    onSuccess: async ({ project, keySet }) => {
      setInput(EMPTY);
      if (keySet) await rememberNewAppKeys(queryClient, project.id, keySet);
      await queryClient.invalidateQueries({ queryKey: ownedProjectsKey(userId) });
      await navigate({ to: "/projects/$projectId/get-started", params: { projectId: project.id } });
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
