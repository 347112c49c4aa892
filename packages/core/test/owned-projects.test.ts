import { KnownErrors } from "@latchkey/protocol/errors";
import { describe, expect, it } from "vitest";
import { PASSWORD, clientAppFor, createTestProject, dashboardAppFor, email, signedUpOwner, useLiveServer } from "./support/live-server.js";

/**
 * The dashboard's Projects page through the client app: a person signs up on the `internal` project (as the
 * dashboard's sign-in widget does), lists and creates the projects their teams own.
 */
const { server } = useLiveServer();

describe("owned projects", () => {
  it("starts with none, then lists the projects the owner creates, oldest first", async () => {
    const { app, teamId } = await signedUpOwner(server());
    expect(await app.listOwnedProjects()).toEqual([]);

    const first = await app.createProject({ displayName: "Shop", description: "The web shop", ownerTeamId: teamId });
    expect(first).toMatchObject({ displayName: "Shop", description: "The web shop", ownerTeamId: teamId });
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
    const second = await app.createProject({ displayName: "Blog", ownerTeamId: teamId });
    expect(second.description).toBe("");

    expect((await app.listOwnedProjects()).map((p) => [p.id, p.displayName])).toEqual([
      [first.id, "Shop"],
      [second.id, "Blog"],
    ]);
  });

  it("shows one owner none of another owner's projects", async () => {
    const alice = await signedUpOwner(server());
    await alice.app.createProject({ displayName: "Alice's app", ownerTeamId: alice.teamId });
    const bob = await signedUpOwner(server());
    expect(await bob.app.listOwnedProjects()).toEqual([]);
    // Nor may Bob create one in Alice's team.
    await expect(bob.app.createProject({ displayName: "Sneaky", ownerTeamId: alice.teamId })).rejects.toBeInstanceOf(KnownErrors.TeamMembershipNotFound);
  });

  it("refuses a signed-out person and another project's users with the protocol's errors", async () => {
    await expect(dashboardAppFor(server()).listOwnedProjects()).rejects.toBeInstanceOf(KnownErrors.UserAuthenticationRequired);

    const project = await createTestProject(server());
    const { app } = clientAppFor(server(), project);
    await app.signUpWithCredential({ email: email(), password: PASSWORD, noRedirect: true });
    await expect(app.listOwnedProjects()).rejects.toBeInstanceOf(KnownErrors.ExpectedInternalProject);
  });
});
