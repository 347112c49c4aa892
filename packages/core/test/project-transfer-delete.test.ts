import { KnownErrors } from "@latchkey/protocol/errors";
import { describe, expect, it } from "vitest";
import { createAdminApp } from "../src/apps/admin-app.js";
import { signedUpOwner, useLiveServer } from "./support/live-server.js";

/**
 * The dashboard's project Settings through the apps: an owner (a user of the `internal` project) moves a
 * project to another of their teams, and deletes it with the admin app that acts as its owner.
 */
const { server } = useLiveServer();

/** The admin app of a project acting as the signed-in owner, as the dashboard makes it. */
const ownerAdminApp = (owner: Awaited<ReturnType<typeof signedUpOwner>>, projectId: string) =>
  createAdminApp({ projectId, baseUrl: server().url, projectOwnerSession: owner.app.session, tokenStore: "memory" });

describe("a project's transfer and deletion", () => {
  it("moves a project to another of the owner's teams, and refuses a team they are not in", async () => {
    const owner = await signedUpOwner(server());
    const project = await owner.app.createProject({ displayName: "Moving", ownerTeamId: owner.teamId });
    const other = await owner.app.createTeam({ displayName: "Agency" });

    await ownerAdminApp(owner, project.id).transferProject(other.id);
    expect((await owner.app.listOwnedProjects()).map((p) => [p.id, p.ownerTeamId])).toEqual([[project.id, other.id]]);

    const stranger = await signedUpOwner(server());
    await expect(ownerAdminApp(owner, project.id).transferProject(stranger.teamId)).rejects.toBeInstanceOf(KnownErrors.TeamMembershipNotFound);
    // Nor may a stranger take it: they administer nothing of it.
    await expect(ownerAdminApp(stranger, project.id).transferProject(stranger.teamId)).rejects.toThrow();
    expect((await owner.app.listOwnedProjects()).map((p) => p.ownerTeamId)).toEqual([other.id]);
  });

  it("deletes the project: it leaves the owner's list and the admin app is refused from then on", async () => {
    const owner = await signedUpOwner(server());
    const project = await owner.app.createProject({ displayName: "Doomed", ownerTeamId: owner.teamId });
    const admin = ownerAdminApp(owner, project.id);
    expect((await admin.getAdminProject()).displayName).toBe("Doomed");

    await admin.deleteProject();
    expect(await owner.app.listOwnedProjects()).toEqual([]);
    await expect(admin.getAdminProject()).rejects.toThrow();
  });
});
