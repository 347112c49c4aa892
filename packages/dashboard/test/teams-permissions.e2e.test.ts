import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectAccessibleAndNarrow, keyAdmin, openSection, ownerWithProject, useDashboardHarness } from "./support/dashboard-e2e.js";

/**
 * The Teams, Team and Permissions pages (issue 20) as an owner uses them, against the real server: a team is
 * created, gets a member, a permission and loses both again before it is deleted; permissions are defined,
 * contain each other (drawn as a graph) and become a default. What the pages claim is checked through the API
 * with a key made for the test.
 */
const harness = useDashboardHarness();

const card = (page: Page, title: string) => page.getByRole("region", { name: title, exact: true });

describe("the Teams and Team pages", () => {
  it("creates a team, adds a member, grants and revokes their permission, removes them and deletes the team", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const admin = await keyAdmin(harness.server, projectId, "teams e2e");
    const member = await admin.createUser({ primaryEmail: `mia-${crypto.randomUUID().slice(0, 8)}@example.com`, displayName: "Mia Member" });

    await openSection(page, "Teams");
    await page.getByText("No teams yet. Create the first one below.").waitFor();

    // The form says what is wrong before anything is sent.
    const create = card(page, "Create a team");
    await create.getByRole("button", { name: "Create team" }).click();
    await create.getByText("Give the team a name.").waitFor();
    await create.getByLabel("Creator's user id (optional)").fill("not an id");
    await create.getByLabel("Team name").fill("Support crew");
    await create.getByRole("button", { name: "Create team" }).click();
    await create.getByText(/A user id looks like/).waitFor();
    await create.getByLabel("Creator's user id (optional)").fill("");
    await create.getByRole("button", { name: "Create team" }).click();

    // Created, the team's own page opens.
    await page.getByRole("heading", { name: "Support crew", level: 2 }).waitFor();
    const [team] = await admin.listServerTeams();
    expect(team).toMatchObject({ displayName: "Support crew" });
    expect(new URL(page.url()).pathname).toBe(`/dashboard/projects/${projectId}/teams/${team!.id}`);
    const members = card(page, "Members");
    await members.getByText("This team has no members yet.").waitFor();

    // The table lists it, links to it and searches it.
    await page.getByRole("link", { name: "Teams", exact: true }).first().click();
    const table = page.getByRole("table", { name: "The project's teams" });
    await table.getByRole("link", { name: "Support crew" }).waitFor();
    await page.getByLabel("Search teams").fill("nothing like it");
    await page.getByText("No team matches this search.").waitFor();
    await page.getByLabel("Search teams").fill("SUPPORT");
    await page.getByText("1 of 1 team matches the search.").waitFor();
    await expectAccessibleAndNarrow(page);
    await table.getByRole("link", { name: "Support crew" }).click();

    // A member is found by part of their email and added.
    await members.getByLabel("User id or email").fill(member.primaryEmail!.slice(0, 10));
    await members.getByRole("button", { name: "Add or search" }).click();
    await members.getByRole("list", { name: "Matching users" }).getByRole("button", { name: "Add Mia Member" }).click();
    await members.getByRole("table").getByRole("link", { name: "Mia Member" }).waitFor();
    expect((await admin.listServerTeamMembers(team!.id)).map((m) => m.userId)).toEqual([member.id]);

    // Granted a permission, which is still there after a reload.
    const permissions = card(page, "Permissions in this team");
    await permissions.getByLabel("Member", { exact: true }).selectOption({ label: "Mia Member" });
    await permissions.getByLabel("Permission", { exact: true }).selectOption("team_admin");
    await permissions.getByRole("button", { name: "Grant" }).click();
    const chips = permissions.getByRole("list", { name: "Permissions of Mia Member" });
    await chips.getByText("team_admin").waitFor();
    await page.reload();
    await chips.getByText("team_admin").waitFor();
    expect(await admin.listTeamPermissionGrants(team!.id)).toContainEqual({ teamId: team!.id, userId: member.id, permissionId: "team_admin" });

    // An invitation is sent and listed.
    const invitations = card(page, "Invitations");
    await invitations.getByLabel("Email address").fill("nobody");
    await invitations.getByRole("button", { name: "Send invitation" }).click();
    await invitations.getByText("Enter an email address like name@example.com.").waitFor();
    await invitations.getByLabel("Email address").fill("invited@example.com");
    await invitations.getByRole("button", { name: "Send invitation" }).click();
    await invitations.getByRole("list", { name: "Pending invitations" }).getByText("invited@example.com").waitFor();

    // Metadata must be valid JSON before it is saved.
    const metadata = card(page, "Metadata");
    await metadata.getByLabel("Server metadata").fill("{ plan: pro }");
    await metadata.getByRole("button", { name: "Save metadata" }).click();
    await metadata.getByText(/This is not valid JSON/).waitFor();
    await metadata.getByLabel("Server metadata").fill('{ "plan": "pro" }');
    await metadata.getByRole("button", { name: "Save metadata" }).click();
    await metadata.getByText("Metadata saved.").waitFor();
    expect((await admin.getServerTeam(team!.id)).serverMetadata).toEqual({ plan: "pro" });

    await expectAccessibleAndNarrow(page);

    // Revoking the invitation asks first, and its link stops working.
    await invitations.getByRole("button", { name: "Revoke the invitation of invited@example.com" }).click();
    await page.getByRole("dialog", { name: "Revoke this invitation?" }).getByRole("button", { name: "Revoke invitation" }).click();
    await invitations.getByText("No pending invitations.").waitFor();
    expect(await admin.listServerTeamInvitations(team!.id)).toEqual([]);

    // Renamed.
    const details = card(page, "Team details");
    await details.getByLabel("Team name").fill("   ");
    await details.getByRole("button", { name: "Save name" }).click();
    await details.getByText("Give the team a name.").waitFor();
    await details.getByLabel("Team name").fill("Support team");
    await details.getByRole("button", { name: "Save name" }).click();
    await page.getByRole("heading", { name: "Support team", level: 2 }).waitFor();
    expect((await admin.getServerTeam(team!.id)).displayName).toBe("Support team");

    // Revoking the permission asks first.
    await chips.getByRole("button", { name: "Revoke team_admin from Mia Member" }).click();
    await page.getByRole("dialog", { name: "Revoke this permission?" }).getByRole("button", { name: "Revoke permission" }).click();
    await expect.poll(async () => (await chips.getByText("team_admin").count())).toBe(0);
    expect((await admin.listTeamPermissionGrants(team!.id)).map((g) => g.permissionId)).not.toContain("team_admin");

    // Removing the member asks first, and reaches the server.
    await members.getByRole("button", { name: "Remove Mia Member" }).click();
    const removeDialog = page.getByRole("dialog", { name: "Remove this member?" });
    await removeDialog.getByRole("button", { name: "Cancel" }).click();
    await removeDialog.waitFor({ state: "hidden" });
    expect(await admin.listServerTeamMembers(team!.id)).toHaveLength(1);
    await members.getByRole("button", { name: "Remove Mia Member" }).click();
    await removeDialog.getByRole("button", { name: "Remove member" }).click();
    await members.getByText("This team has no members yet.").waitFor();
    expect(await admin.listServerTeamMembers(team!.id)).toEqual([]);

    // Deleting the team needs its name typed.
    await card(page, "Delete this team").getByRole("button", { name: "Delete team" }).click();
    const deleteDialog = page.getByRole("dialog", { name: "Delete Support team?" });
    const confirm = deleteDialog.getByRole("button", { name: "Delete team" });
    expect(await confirm.isDisabled()).toBe(true);
    await deleteDialog.getByLabel("Type Support team to confirm").fill("Support team");
    await confirm.click();
    await page.waitForURL((url) => url.pathname === `/dashboard/projects/${projectId}/teams`);
    await page.getByText("No teams yet. Create the first one below.").waitFor();
    expect(await admin.listServerTeams()).toEqual([]);
  });
});

describe("the Permissions page", () => {
  it("creates a permission containing another, draws the edge, makes it a member default, edits and deletes permissions", async () => {
    const { page, projectId } = await ownerWithProject(harness);
    const admin = await keyAdmin(harness.server, projectId, "teams e2e");
    await openSection(page, "Permissions");
    const team = card(page, "Team permissions");
    const cell = (text: string) => page.getByRole("cell", { name: text, exact: true });
    await team.getByRole("table").getByRole("cell", { name: "$update_team", exact: true }).waitFor();
    // System permissions are shown, not editable.
    const systemRow = team.getByRole("row").filter({ has: cell("$update_team") });
    await systemRow.getByText("System permission").waitFor();
    expect(await team.getByRole("button", { name: "Edit $update_team" }).count()).toBe(0);

    const createForm = team.getByRole("form", { name: "Create a team permission" });
    await createForm.getByLabel("Permission id").fill("Read Reports");
    await createForm.getByRole("button", { name: "Create permission" }).click();
    await createForm.getByText(/Only lowercase letters/).waitFor();
    await createForm.getByLabel("Permission id").fill("read_reports");
    await createForm.getByLabel("Description").fill("Reads the reports");
    await createForm.getByRole("button", { name: "Create permission" }).click();
    await team.getByRole("table").getByRole("cell", { name: "read_reports", exact: true }).waitFor();

    await createForm.getByLabel("Permission id").fill("edit_reports");
    await createForm.getByRole("group", { name: "Contained permissions" }).getByLabel("read_reports").check();
    await createForm.getByRole("button", { name: "Create permission" }).click();

    // The graph draws the new edge, labelled, and says it in words.
    const graph = team.getByRole("img", { name: "How the team permissions contain each other" });
    await graph.locator('[data-edge="edit_reports contains read_reports"]').waitFor({ state: "attached" });
    await graph.locator("text", { hasText: "edit_reports" }).waitFor();
    await team.locator(".dashboard-visually-hidden", { hasText: "edit_reports contains read_reports." }).waitFor({ state: "attached" });
    expect(await admin.listPermissionDefinitions("team")).toContainEqual({
      id: "edit_reports",
      description: null,
      containedPermissionIds: ["read_reports"],
      isSystem: false,
    });

    // Made a default of team members, through the project config.
    const members = page.getByRole("form", { name: "Team members", exact: true });
    await members.getByLabel("edit_reports").check();
    await members.getByRole("button", { name: "Save defaults of team members" }).click();
    await members.getByText("Defaults of team members saved.").waitFor();
    const project = await admin.getAdminProject();
    expect(project.config.team_member_default_permissions.map((p) => p.id)).toContain("edit_reports");
    await page.reload();
    expect(await page.getByRole("form", { name: "Team members", exact: true }).getByLabel("edit_reports").isChecked()).toBe(true);

    // Edited: a new description.
    await team.getByRole("button", { name: "Edit read_reports" }).click();
    const editForm = team.getByRole("form", { name: "Edit read_reports" });
    await editForm.getByLabel("Description").fill("Reads every report");
    await editForm.getByRole("button", { name: "Save permission" }).click();
    await team.getByRole("table").getByText("Reads every report").waitFor();

    // A project permission, then deleted after a confirmation.
    const projectCard = card(page, "Project permissions");
    await projectCard.getByText("No project permissions yet. Create the first one below.").waitFor();
    const projectForm = projectCard.getByRole("form", { name: "Create a project permission" });
    await projectForm.getByLabel("Permission id").fill("billing");
    await projectForm.getByRole("button", { name: "Create permission" }).click();
    await projectCard.getByRole("table").getByRole("cell", { name: "billing", exact: true }).waitFor();

    await expectAccessibleAndNarrow(page);

    await projectCard.getByRole("button", { name: "Delete billing" }).click();
    await page.getByRole("dialog", { name: "Delete billing?" }).getByRole("button", { name: "Delete permission" }).click();
    await projectCard.getByText("No project permissions yet. Create the first one below.").waitFor();
    expect(await admin.listPermissionDefinitions("project")).toEqual([]);
  });
});
