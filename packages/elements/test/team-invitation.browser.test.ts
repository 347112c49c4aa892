import { expect } from "@esm-bundle/chai";
import { sendKeys } from "@web/test-runner-commands";
import { createProject, createUser, uniqueEmail, waitForMail } from "./support/harness.js";
import { alerts, fill, mount, unmountAll, until } from "./support/mount.js";
import { axe } from "./support/axe.js";
import { inviteAndReadCode, PASSWORD, signedIn, TEAM_PROJECT, type Person } from "./support/teams.js";

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
const text = (el: Element) => el.textContent!.replace(/\s+/g, " ").trim();

function button(person: { host: Element }, label: string): HTMLButtonElement {
  const found = [...person.host.querySelectorAll<HTMLButtonElement>("button")].find((b) => text(b) === label);
  if (!found) throw new Error(`No "${label}" button in: ${text(person.host)}`);
  return found;
}

function memberNames(person: Person): string[] {
  const heading = [...person.host.querySelectorAll("h3")].find((h) => text(h) === "Members");
  return [...(heading?.parentElement?.querySelectorAll(".lk-list>li .lk-grow") ?? [])].map(text);
}

describe("<auth-team-invitation>", () => {
  afterEach(unmountAll);

  it("has no accessibility violations, signed out and with the invitation shown", async () => {
    const project = await createProject(TEAM_PROJECT);
    const creator = await signedIn(project, "", "Creator");
    const team = await creator.app.createTeam({ displayName: "Rocket Club" });
    const invitee = uniqueEmail("invitee");
    const code = await inviteAndReadCode(creator.app, team.id, invitee);
    const page = await mount(project, `<auth-team-invitation code=${code}></auth-team-invitation>`);
    await until(() => page.host.querySelector("auth-team-invitation a"));
    await settle();
    expect(await axe(page.host)).to.deep.equal([]);
    await createUser(project, { email: invitee, password: PASSWORD });
    await page.app.signInWithCredential({ email: invitee, password: PASSWORD, noRedirect: true });
    await until(() => button(page, "Accept"));
    await settle();
    expect(await axe(page.host)).to.deep.equal([]);
  });

  it("signed out, explains and links to sign-in that comes back here; after signing in it shows the team", async () => {
    const project = await createProject(TEAM_PROJECT);
    const creator = await signedIn(project, "", "Creator");
    const team = await creator.app.createTeam({ displayName: "Rocket Club" });
    const invitee = uniqueEmail("invitee");
    const code = await inviteAndReadCode(creator.app, team.id, invitee);
    const page = await mount(project, `<auth-team-invitation code=${code}></auth-team-invitation>`);
    const link = await until(() => page.host.querySelector<HTMLAnchorElement>("auth-team-invitation a"));
    expect(text(page.q("auth-team-invitation"))).to.contain("Sign in or create an account");
    expect(text(link)).to.equal("Sign in to continue");
    const target = new URL(link.href);
    expect(target.pathname).to.equal("/handler/sign-in");
    expect(target.searchParams.get("after_auth_return_to")).to.equal(location.pathname + location.search);
    // People invited by mail often have no account yet: sign-up comes back here too.
    const signUp = await until(() => page.host.querySelector<HTMLAnchorElement>("auth-team-invitation a[href^='/handler/sign-up']"));
    expect(text(signUp)).to.equal("Create an account");
    expect(new URL(signUp.href).searchParams.get("after_auth_return_to")).to.equal(location.pathname + location.search);
    // The team's name stays private until someone signed in looks.
    expect(page.host.textContent).to.not.contain("Rocket Club");

    await createUser(project, { email: invitee, password: PASSWORD });
    await page.app.signInWithCredential({ email: invitee, password: PASSWORD, noRedirect: true });
    await until(() => page.host.textContent!.includes("You have been invited to join Rocket Club."));
  });

  it("invite → mail → accept as a second user → listed as a member → removed", async () => {
    const project = await createProject(TEAM_PROJECT);
    const creator = await signedIn(project, "", "Creator");
    const team = await creator.app.createTeam({ displayName: "Rocket Club" });
    creator.host.innerHTML = `<auth-team-settings team-id=${team.id}></auth-team-settings>`;

    // The creator invites through the settings form.
    const invitee = uniqueEmail("invitee");
    const email = await until(() => creator.q<HTMLInputElement>("input[name=email]"));
    fill(email, invitee);
    email.form!.requestSubmit();
    await until(() => creator.host.textContent!.includes(`Invitation sent to ${invitee}.`));

    // The second person, in an app of their own on the same page, opens the mailed link's page.
    const mail = await waitForMail(invitee);
    const link = new URL(mail.links.find((l) => l.includes("code="))!);
    expect(link.pathname).to.equal("/handler/team-invitation");
    await createUser(project, { email: invitee, password: PASSWORD, displayName: "Invitee" });
    const second = await mount(project, "");
    await second.app.signInWithCredential({ email: invitee, password: PASSWORD, noRedirect: true });
    const accepted: CustomEvent[] = [];
    second.host.addEventListener("auth-team-invitation-accepted", (e) => accepted.push(e as CustomEvent));
    second.host.innerHTML = `<auth-team-invitation code=${link.searchParams.get("code")}></auth-team-invitation>`;
    const accept = await until(() => button(second, "Accept"));
    expect(text(second.q("auth-team-invitation"))).to.contain("You have been invited to join Rocket Club.");
    accept.focus();
    await sendKeys({ press: "Enter" });
    await until(() => second.host.textContent!.includes("You have joined Rocket Club."));
    expect(accepted.map((e) => e.detail)).to.deep.equal([{ teamId: team.id }]);
    expect(text(second.q<HTMLAnchorElement>("auth-team-invitation a"))).to.equal("Continue");
    // The team they joined is now their selected team.
    expect((await second.app.getUser())?.selectedTeamId).to.equal(team.id);

    // The creator sees the new member (the settings load afresh) and removes them.
    creator.host.innerHTML = `<auth-team-settings team-id=${team.id}></auth-team-settings>`;
    await until(() => memberNames(creator).includes("Invitee"));
    expect(creator.host.querySelector("button[aria-label^=Revoke]")).to.equal(null);
    creator.q<HTMLButtonElement>("button[aria-label='Remove Invitee']").click();
    const dialog = await until(() => creator.host.querySelector<HTMLDialogElement>("dialog[open]"));
    button({ host: dialog }, "Remove member").click();
    await until(() => !memberNames(creator).includes("Invitee"));
    expect(await second.app.listTeams()).to.deep.equal([]);
  });

  it("says a used, an unknown and a missing code in words", async () => {
    const project = await createProject(TEAM_PROJECT);
    const creator = await signedIn(project, "", "Creator");
    const team = await creator.app.createTeam({ displayName: "Rocket Club" });
    const person = await signedIn(project, "", "Person");
    const code = await inviteAndReadCode(creator.app, team.id, person.email);
    await person.app.acceptTeamInvitation(code);

    const cases: Array<[string, string]> = [
      [`<auth-team-invitation code=${code}></auth-team-invitation>`, "This invitation has already been used."],
      ['<auth-team-invitation code="NOT-A-REAL-CODE-1234567890"></auth-team-invitation>', "This invitation link is not valid. Ask for a new invitation."],
      ["<auth-team-invitation></auth-team-invitation>", "This link has no invitation code. Ask for a new invitation."],
    ];
    for (const [markup, message] of cases) {
      person.host.innerHTML = markup;
      await until(() => alerts(person.host).length > 0, 10_000, message);
      expect(alerts(person.host)).to.deep.equal([message]);
      expect(person.host.querySelector("auth-team-invitation button")).to.equal(null);
    }
  });

  it("declines without using the invitation up", async () => {
    const project = await createProject(TEAM_PROJECT);
    const creator = await signedIn(project, "", "Creator");
    const team = await creator.app.createTeam({ displayName: "Rocket Club" });
    const person = await signedIn(project, "", "Person");
    const code = await inviteAndReadCode(creator.app, team.id, person.email);
    person.host.innerHTML = `<auth-team-invitation code=${code}></auth-team-invitation>`;
    (await until(() => button(person, "Decline"))).click();
    await until(() => person.host.textContent!.includes("You have declined the invitation."));
    expect(person.teamEvents).to.deep.equal([]);
    expect(await person.app.listTeams()).to.deep.equal([]);
    // The link still works later.
    expect((await person.app.getTeamInvitationDetails(code)).teamDisplayName).to.equal("Rocket Club");
  });
});
