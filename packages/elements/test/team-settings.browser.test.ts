import { expect } from "@esm-bundle/chai";
import { sendKeys } from "@web/test-runner-commands";
import { createProject, uniqueEmail, waitForMail } from "./support/harness.js";
import { alerts, fill, unmountAll, until, untilFocused } from "./support/mount.js";
import { axe } from "./support/axe.js";
import { inviteAndReadCode, signedIn, TEAM_PROJECT, type Person } from "./support/teams.js";

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
const text = (el: Element) => el.textContent!.replace(/\s+/g, " ").trim();

/** The buttons a person can press, by their visible text. */
function buttons(person: Person): string[] {
  return [...person.host.querySelectorAll<HTMLButtonElement>("auth-team-settings button")].map(text);
}

function memberNames(person: Person): string[] {
  const heading = [...person.host.querySelectorAll("h3")].find((h) => text(h) === "Members");
  return [...(heading?.parentElement?.querySelectorAll(".lk-list>li .lk-grow") ?? [])].map(text);
}

/** Confirms the open native dialog with its confirm button. */
async function confirmDialog(person: Person, label: string): Promise<void> {
  const dialog = await until(() => person.host.querySelector<HTMLDialogElement>("dialog[open]"));
  const confirm = [...dialog.querySelectorAll("button")].find((b) => text(b) === label);
  if (!confirm) throw new Error(`No "${label}" in the dialog: ${text(dialog)}`);
  confirm.click();
}

/** A creator with a team shown in settings, and a second person who joined it through an invitation. */
async function teamWithMember(): Promise<{ creator: Person; member: Person; teamId: string }> {
  const project = await createProject(TEAM_PROJECT);
  const creator = await signedIn(project, "", "Creator");
  const team = await creator.app.createTeam({ displayName: "Rocket Club" });
  const member = await signedIn(project, "", "Member");
  await member.app.acceptTeamInvitation(await inviteAndReadCode(creator.app, team.id, member.email));
  creator.host.innerHTML = `<auth-team-settings team-id=${team.id}></auth-team-settings>`;
  member.host.innerHTML = `<auth-team-settings team-id=${team.id}></auth-team-settings>`;
  await until(() => memberNames(creator).length === 2 && memberNames(member).length === 2, 10_000, "both settings loaded");
  return { creator, member, teamId: team.id };
}

describe("<auth-team-settings>", () => {
  afterEach(unmountAll);

  it("has no accessibility violations for an admin and a member, light and dark", async () => {
    const { creator, member } = await teamWithMember();
    for (const theme of ["light", "dark"]) {
      creator.host.setAttribute("theme", theme);
      member.host.setAttribute("theme", theme);
      await settle();
      expect(await axe(creator.host)).to.deep.equal([]);
      expect(await axe(member.host)).to.deep.equal([]);
    }
  });

  it("shows each action only with its permission: the creator administers, a member reads and invites", async () => {
    const { creator, member } = await teamWithMember();
    expect(text(creator.q("auth-team-settings h2"))).to.contain("Rocket Club");
    expect(memberNames(creator).sort()).to.deep.equal(["Creator", "Member"]);
    expect(creator.q<HTMLInputElement>("input[name=team-name]").value).to.equal("Rocket Club");
    expect(creator.host.querySelector("input[name=email]")).to.not.equal(null);
    expect(buttons(creator)).to.include.members(["Save name", "Send invitation", "Remove", "Leave team", "Delete team"]);
    // Only others can be removed; the user is marked.
    expect(creator.host.querySelectorAll("button[aria-label^=Remove]").length).to.equal(1);
    expect(creator.q("button[aria-label^=Remove]").getAttribute("aria-label")).to.equal("Remove Member");
    expect(text(creator.q(".lk-badge"))).to.equal("You");

    // The member ($read_members, $invite_members): sees members and may invite, nothing else.
    expect(memberNames(member).sort()).to.deep.equal(["Creator", "Member"]);
    expect(member.host.querySelector("input[name=team-name]")).to.equal(null);
    expect(member.host.querySelector("input[name=email]")).to.not.equal(null);
    expect(buttons(member)).to.deep.equal(["Send invitation", "Leave team"]);
  });

  it("renames the team", async () => {
    const project = await createProject(TEAM_PROJECT);
    const creator = await signedIn(project, "", "Creator");
    const team = await creator.app.createTeam({ displayName: "Old name" });
    creator.host.innerHTML = `<auth-team-settings team-id=${team.id}></auth-team-settings>`;
    const name = await until(() => creator.q<HTMLInputElement>("input[name=team-name]"));
    fill(name, "New name");
    name.form!.requestSubmit();
    await until(() => text(creator.q("auth-team-settings h2")).includes("New name"));
    expect(text(creator.q("[role=status]"))).to.equal("The team name has been saved.");
    expect(creator.teamEvents.map((e) => e.type)).to.deep.equal(["auth-team-updated"]);
    expect((await creator.app.listTeams())[0]?.displayName).to.equal("New name");
  });

  it("invites by email, lists and revokes the pending invitation", async () => {
    const project = await createProject(TEAM_PROJECT);
    const creator = await signedIn(project, "", "Creator");
    const team = await creator.app.createTeam({ displayName: "Rocket Club" });
    creator.host.innerHTML = `<auth-team-settings team-id=${team.id}></auth-team-settings>`;
    const invitee = uniqueEmail("invitee");
    const email = await until(() => creator.q<HTMLInputElement>("input[name=email]"));
    fill(email, invitee);
    email.form!.requestSubmit();
    // Said next to the form, where the person is looking.
    const sent = await until(() => creator.host.querySelector<HTMLElement>("form + [role=status]"));
    await until(() => text(sent) === `Invitation sent to ${invitee}.`);
    expect(sent.previousElementSibling!.contains(email)).to.equal(true);
    const mail = await waitForMail(invitee);
    expect(mail.text).to.contain("Rocket Club");
    const revoke = await until(() => creator.q<HTMLButtonElement>(`button[aria-label="Revoke the invitation of ${invitee}"]`));
    expect(creator.host.textContent).to.contain("Pending invitations");
    revoke.click();
    await until(() => !creator.host.querySelector("button[aria-label^=Revoke]"));
    expect(text(creator.q("[role=status]"))).to.equal(`The invitation of ${invitee} has been revoked.`);
    expect(await creator.app.listTeamInvitations(team.id)).to.deep.equal([]);
  });

  it("shows the server's refusal of an invalid email next to the field", async () => {
    const project = await createProject(TEAM_PROJECT);
    const creator = await signedIn(project, "", "Creator");
    const team = await creator.app.createTeam({ displayName: "Rocket Club" });
    creator.host.innerHTML = `<auth-team-settings team-id=${team.id}></auth-team-settings>`;
    const email = await until(() => creator.q<HTMLInputElement>("input[name=email]"));
    // type=email would stop the browser's own submit; a form submitted by script reaches the server.
    email.type = "text";
    fill(email, "not-an-email");
    email.form!.requestSubmit();
    await until(() => alerts(creator.host).length > 0);
    expect(alerts(creator.host).join(" ")).to.match(/email/i);
  });

  it("removes a member after confirming; they lose the team", async () => {
    const { creator, member, teamId } = await teamWithMember();
    // With the keyboard: the dialog traps focus and gives it back to the button that opened it.
    creator.q<HTMLButtonElement>("button[aria-label='Remove Member']").focus();
    await sendKeys({ press: "Enter" });
    const dialog = await until(() => creator.host.querySelector<HTMLDialogElement>("dialog[open]"));
    expect(text(dialog)).to.contain("Remove Member?");
    // Cancel first: nothing changes, focus back on the button.
    expect(text(document.activeElement!)).to.equal("Cancel");
    await sendKeys({ press: "Enter" });
    await until(() => !creator.host.querySelector("dialog[open]"));
    expect(memberNames(creator)).to.have.length(2);
    await untilFocused(creator.q("button[aria-label='Remove Member']"));

    creator.q<HTMLButtonElement>("button[aria-label='Remove Member']").click();
    await confirmDialog(creator, "Remove member");
    await until(() => memberNames(creator).length === 1);
    expect(memberNames(creator)).to.deep.equal(["Creator"]);
    expect(creator.teamEvents.find((e) => e.type === "auth-team-member-removed")?.detail).to.deep.equal({ teamId, userId: member.userId });
    expect(await member.app.listTeams()).to.deep.equal([]);
  });

  it("lets a member leave and the creator delete the team", async () => {
    const { creator, member, teamId } = await teamWithMember();
    member.q<HTMLButtonElement>("auth-team-settings .lk-actions button").click();
    await confirmDialog(member, "Leave team");
    await until(() => member.host.textContent!.includes("You have left Rocket Club."));
    expect(member.teamEvents.map((e) => e.type)).to.deep.equal(["auth-team-left"]);
    expect(await member.app.listTeams()).to.deep.equal([]);

    const remove = [...creator.host.querySelectorAll<HTMLButtonElement>("button")].find((b) => text(b) === "Delete team")!;
    remove.click();
    await confirmDialog(creator, "Delete team");
    await until(() => creator.host.textContent!.includes("Rocket Club has been deleted."));
    expect(creator.teamEvents.find((e) => e.type === "auth-team-deleted")?.detail).to.deep.equal({ teamId });
    expect(await creator.app.listTeams()).to.deep.equal([]);
  });

  it("invites with a role the inviter holds; the members list shows each member's roles as badges", async () => {
    const project = await createProject(TEAM_PROJECT);
    const creator = await signedIn(project, "", "Creator");
    const team = await creator.app.createTeam({ displayName: "Rocket Club" });
    const invitee = await signedIn(project, "", "Deputy");
    creator.host.innerHTML = `<auth-team-settings team-id=${team.id}></auth-team-settings>`;
    const role = await until(() => creator.q<HTMLSelectElement>("select[name=role]"));
    // The creator holds team_admin (not team_member, which it does not contain); the default adds no role.
    expect([...role.options].map((o) => [o.value, text(o)])).to.deep.equal([["", "Member (default)"], ["team_admin", "team_admin"]]);
    expect(text(role.labels![0]!)).to.match(/^Role Member \(default\)/);
    expect(await axe(creator.host)).to.deep.equal([]);
    role.value = "team_admin";
    fill(creator.q<HTMLInputElement>("input[name=email]"), invitee.email);
    creator.q<HTMLInputElement>("input[name=email]").form!.requestSubmit();
    const mail = await waitForMail(invitee.email);
    const code = new URL(mail.links.find((l) => l.includes("code="))!).searchParams.get("code")!;
    await invitee.app.acceptTeamInvitation(code);

    creator.host.innerHTML = `<auth-team-settings team-id=${team.id}></auth-team-settings>`;
    await until(() => memberNames(creator).length === 2);
    // Each member's row: their name, then their roles.
    const rows = [...creator.host.querySelectorAll("h3 + .lk-list > li")].slice(0, 2);
    const badges = (row: Element) => [...row.querySelectorAll("[part=role]")].map(text);
    expect(rows.map((row) => [text(row.querySelector(".lk-name")!), badges(row)])).to.deep.equal([
      ["Creator", ["team_admin"]],
      ["Deputy", ["team_admin", "team_member"]],
    ]);
    // Another admin now: the creator may leave.
    const leave = [...creator.host.querySelectorAll<HTMLButtonElement>("button")].find((b) => text(b) === "Leave team")!;
    expect(leave.disabled).to.equal(false);
  });

  it("keeps the team's only admin from leaving while others remain, and says why", async () => {
    const { creator, member, teamId } = await teamWithMember();
    const leaveOf = (person: Person) => [...person.host.querySelectorAll<HTMLButtonElement>("button")].find((b) => text(b) === "Leave team")!;
    const creatorLeave = leaveOf(creator);
    expect(creatorLeave.disabled).to.equal(true);
    const explanation = creator.q(`#${creatorLeave.getAttribute("aria-describedby")}`);
    expect(text(explanation)).to.equal(
      "You are this team's only admin, so you cannot leave it while other members remain. Another member must become an admin first. You can also delete the team for everyone.",
    );
    expect(await axe(creator.host)).to.deep.equal([]);
    // A member who is not an admin leaves as before, with no explanation shown; then the admin is alone and may leave.
    expect(leaveOf(member).disabled).to.equal(false);
    expect(member.host.textContent).to.not.contain("only admin");
    leaveOf(member).click();
    await confirmDialog(member, "Leave team");
    await until(() => member.host.textContent!.includes("You have left Rocket Club."));
    creator.host.innerHTML = `<auth-team-settings team-id=${teamId}></auth-team-settings>`;
    await until(() => memberNames(creator).length === 1);
    expect(leaveOf(creator).disabled).to.equal(false);
    expect(creator.host.textContent).to.not.contain("only admin");
  });

  it("has no role picker when the inviter holds none of the project's own team roles", async () => {
    const project = await createProject({
      ...TEAM_PROJECT,
      configOverride: { ...TEAM_PROJECT.configOverride, "rbac.defaultPermissions.teamCreator": { $read_members: true, $invite_members: true } },
    });
    const creator = await signedIn(project, "", "Creator");
    const team = await creator.app.createTeam({ displayName: "Plain Club" });
    creator.host.innerHTML = `<auth-team-settings team-id=${team.id}></auth-team-settings>`;
    await until(() => creator.host.querySelector("input[name=email]"));
    expect(creator.host.querySelector("select")).to.equal(null);
    expect(creator.host.querySelector("[part=role]")).to.equal(null);
  });

  it("shows the selected team without team-id, and says so when there is none", async () => {
    const project = await createProject(TEAM_PROJECT);
    const person = await signedIn(project, "<auth-team-settings></auth-team-settings>", "Solo");
    await until(() => person.host.textContent!.includes("No team selected."));
    await person.app.createTeam({ displayName: "Fresh Team" });
    await until(() => person.host.querySelector("auth-team-settings h2")?.textContent?.includes("Fresh Team"));
  });
});
