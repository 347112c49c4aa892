import type { AdminProjectRead } from "@latchkey/protocol/schemas";
import { adminProjectFromWire, type AdminProject, type OwnedProjectCreate } from "../wire/projects.js";
import type { AppContext } from "./app-context.js";

/**
 * The projects a signed-in user of the `internal` project owns through their teams (the dashboard's Projects
 * page): `GET`/`POST /internal/projects`, with the internal project's client access and the user's session.
 * On any other project the server refuses with `KnownErrors.ExpectedInternalProject`.
 */
export interface ClientProjectActions {
  /** The projects owned by any of the signed-in user's teams, oldest first. */
  listOwnedProjects(): Promise<AdminProject[]>;
  /** Creates a project owned by one of the signed-in user's teams (without keys: the owner makes them later). */
  createProject(create: OwnedProjectCreate): Promise<AdminProject>;
}

export function clientProjectActions(ctx: AppContext): ClientProjectActions {
  return {
    async listOwnedProjects() {
      const { items } = await ctx.call<{ items: AdminProjectRead[] }>({ method: "GET", path: "/internal/projects" });
      return items.map(adminProjectFromWire);
    },

    async createProject(create) {
      const body = { display_name: create.displayName, description: create.description ?? null, owner_team_id: create.ownerTeamId };
      return adminProjectFromWire(await ctx.call<AdminProjectRead>({ method: "POST", path: "/internal/projects", body }));
    },
  };
}
