import { describe, expect, it } from "vitest";
import { createTestProject, type TestProject } from "./support/test-server.js";
import { as, configure, createUser, server, useServerForFile } from "./support/users-fixture.js";
import { addMember, configureTeams, serverTeam, signedInUser } from "./support/teams-fixture.js";

/**
 * Issue 13 §2: creating a team or adding a membership never changes the user's selected team, as in the
 * protocol. A client that wants the new team selected sends its own `PATCH /users/me` (the client
 * libraries do).
 */
useServerForFile();

const selectedOf = async (project: TestProject, userId: string) => {
  const read = await as(project, "server", `/users/${userId}`);
  expect(read.status).toBe(200);
  return { id: read.body.selected_team_id, team: read.body.selected_team };
};

describe("the selected team", () => {
  it("stays unset when a server creates a team for a user who had none selected", async () => {
    const project = await createTestProject(server);
    const user = await createUser(project);
    const team = await serverTeam(project, { creator_user_id: user.id });
    expect(await selectedOf(project, user.id)).toEqual({ id: null, team: null });
    // The user is the team's member all the same.
    expect((await as(project, "server", `/teams?user_id=${user.id}`)).body.items.map((t: { id: string }) => t.id)).toEqual([team.id]);
  });

  it("stays on the personal team when the user creates another team as a client, until the client selects it", async () => {
    const project = await createTestProject(server);
    await configureTeams(project);
    await configure(project, { "teams.createPersonalTeamOnSignUp": true });
    const user = await signedInUser(project, { display_name: "Ada" });
    const personal = await selectedOf(project, user.id);
    expect(personal.team).toMatchObject({ display_name: "Ada's Team" });

    const created = await as(project, "client", "/teams", { method: "POST", tokens: user.tokens, body: { display_name: "Second", creator_user_id: "me" } });
    expect(created.status).toBe(201);
    const me = await as(project, "client", "/users/me", { tokens: user.tokens });
    expect(me.body.selected_team_id).toBe(personal.id);
    expect(me.body.selected_team).toMatchObject({ id: personal.id, display_name: "Ada's Team" });

    // What the client libraries do right after creating a team.
    const selected = await as(project, "client", "/users/me", { method: "PATCH", tokens: user.tokens, body: { selected_team_id: created.body.id } });
    expect(selected.status).toBe(200);
    expect(selected.body.selected_team).toMatchObject({ id: created.body.id, display_name: "Second" });
  });

  it("stays as it was when a server adds the user to a team, or names them creator with add_current_user", async () => {
    const project = await createTestProject(server);
    const user = await signedInUser(project);
    const first = await serverTeam(project);
    await addMember(project, first.id, user.id);
    expect(await selectedOf(project, user.id)).toEqual({ id: null, team: null });

    expect((await as(project, "server", `/users/${user.id}`, { method: "PATCH", body: { selected_team_id: first.id } })).status).toBe(200);
    const second = await serverTeam(project);
    await addMember(project, second.id, user.id);
    const third = await as(project, "server", "/teams?add_current_user=true", { method: "POST", tokens: user.tokens, body: { display_name: "Third" } });
    expect(third.status).toBe(201);
    const after = await selectedOf(project, user.id);
    expect(after.id).toBe(first.id);
    expect(after.team).toMatchObject({ id: first.id, display_name: "Team" });
  });
});
