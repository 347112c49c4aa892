import type { AppContext } from "./app-context.js";

/** What an admin app's owner does with the project as a whole: move it to another team, or delete it. */
export function adminProjectActions(ctx: AppContext) {
  return {
    /**
     * Moves the project to another of its owner's teams (`POST /internal/projects/transfer`, sent as an admin
     * request on the project, as the protocol's client sends it). Only an app made with `projectOwnerSession`
     * can: the server needs to know the person, who must administer the team owning the project now
     * (`team_admin`) and be a member of the new one.
     */
    async transferProject(newTeamId: string): Promise<void> {
      await ctx.call({ method: "POST", path: "/internal/projects/transfer", body: { project_id: ctx.projectId, new_team_id: newTeamId }, session: null });
    },

    /**
     * Deletes the project and everything it holds (users, teams, keys, configuration); it cannot be undone.
     * The app is of no further use afterwards: every call is refused as for an unknown project.
     */
    async deleteProject(): Promise<void> {
      await ctx.call({ method: "DELETE", path: "/internal/projects/current", session: null });
    },
  };
}
