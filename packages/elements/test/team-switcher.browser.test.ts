import { expect } from "@esm-bundle/chai";
import { sendKeys } from "@web/test-runner-commands";
import { createProject } from "./support/harness.js";
import { unmountAll, until, untilFocused } from "./support/mount.js";
import { axe } from "./support/axe.js";
import { signedIn, TEAM_PROJECT, type Person } from "./support/teams.js";

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/** The names of the options in the list, as a person reads them. */
function options(person: Person): string[] {
  return [...person.host.querySelectorAll("[role=option]")].map((o) => o.textContent!.replace(/\s+/g, " ").trim());
}

function buttonText(person: Person): string {
  return person.q("auth-team-switcher button[aria-haspopup=listbox] span:last-child").textContent!.replace(/\s+/g, " ").trim();
}

/** A signed-in person in three teams, the last created (Gamma Labs) selected. */
async function personWithTeams(markup = "<auth-team-switcher></auth-team-switcher>", configOverride?: Record<string, unknown>): Promise<Person & { ids: string[] }> {
  const project = await createProject({ ...TEAM_PROJECT, configOverride: { ...TEAM_PROJECT.configOverride, ...configOverride } });
  const person = await signedIn(project, "");
  const ids: string[] = [];
  for (const name of ["Alpha Rockets", "Beta Boats", "Gamma Labs"]) ids.push((await person.app.createTeam({ displayName: name })).id);
  person.host.innerHTML = markup;
  await until(() => person.q("auth-team-switcher button[aria-haspopup=listbox]"));
  return { ...person, ids };
}

describe("<auth-team-switcher>", () => {
  afterEach(unmountAll);

  it("has no accessibility violations, closed and open", async () => {
    const person = await personWithTeams('<auth-team-switcher allow-create></auth-team-switcher>');
    await settle();
    expect(await axe(person.host)).to.deep.equal([]);
    person.q<HTMLButtonElement>("auth-team-switcher button[aria-haspopup=listbox]").click();
    await until(() => !person.q("[role=listbox]").hidden);
    await settle();
    expect(await axe(person.host)).to.deep.equal([]);
  });

  it("shows the selected team and lists the user's teams, the selected one marked", async () => {
    const person = await personWithTeams();
    expect(buttonText(person)).to.contain("Gamma Labs");
    // The avatar shows the team's initials when it has no picture.
    expect(person.q("auth-team-switcher button .lk-avatar").textContent).to.equal("GL");
    const listbox = person.q("[role=listbox]");
    expect(listbox.hidden).to.equal(true);
    person.q<HTMLButtonElement>("auth-team-switcher button[aria-haspopup=listbox]").click();
    await until(() => !listbox.hidden);
    expect(options(person)).to.deep.equal(["ARAlpha Rockets", "BBBeta Boats", "GLGamma Labs"]);
    const selected = [...person.host.querySelectorAll("[role=option][aria-selected=true]")].map((o) => o.textContent!.trim());
    expect(selected).to.have.length(1);
    expect(selected[0]).to.contain("Gamma Labs");
  });

  it("switches teams with the keyboard alone and fires auth-team-changed", async () => {
    const person = await personWithTeams();
    const button = person.q<HTMLButtonElement>("auth-team-switcher button[aria-haspopup=listbox]");
    button.focus();
    await sendKeys({ press: "ArrowDown" });
    const listbox = person.q("[role=listbox]");
    await until(() => document.activeElement === listbox, 2_000, "focus on the list");
    expect(button.getAttribute("aria-expanded")).to.equal("true");
    const active = () => document.getElementById(listbox.getAttribute("aria-activedescendant")!)?.textContent ?? "";
    // The list opens on the selected team.
    expect(active()).to.contain("Gamma Labs");
    await sendKeys({ press: "Home" });
    await until(() => active().includes("Alpha Rockets"));
    await sendKeys({ press: "ArrowDown" });
    await until(() => active().includes("Beta Boats"));
    await sendKeys({ press: "End" });
    await until(() => active().includes("Gamma Labs"));
    // Typing a name's first letters jumps to it.
    await sendKeys({ type: "al" });
    await until(() => active().includes("Alpha Rockets"));
    await sendKeys({ press: "Enter" });

    const changed = await until(() => person.teamEvents.find((e) => e.type === "auth-team-changed"));
    expect(changed.detail).to.deep.equal({ teamId: person.ids[0] });
    await until(() => buttonText(person).includes("Alpha Rockets"));
    expect(listbox.hidden).to.equal(true);
    // Focus goes back to the button, and the server knows the choice.
    await untilFocused(button);
    expect((await person.app.getUser())?.selectedTeamId).to.equal(person.ids[0]);
  });

  it("closes with Escape without changing the team, focus back on the button", async () => {
    const person = await personWithTeams();
    const button = person.q<HTMLButtonElement>("auth-team-switcher button[aria-haspopup=listbox]");
    button.focus();
    await sendKeys({ press: "ArrowDown" });
    await until(() => document.activeElement === person.q("[role=listbox]"));
    await sendKeys({ press: "ArrowUp" });
    await sendKeys({ press: "Escape" });
    await until(() => person.q("[role=listbox]").hidden);
    await untilFocused(button);
    expect(buttonText(person)).to.contain("Gamma Labs");
    expect(person.teamEvents).to.deep.equal([]);
  });

  it("switches with the mouse too", async () => {
    const person = await personWithTeams();
    person.q<HTMLButtonElement>("auth-team-switcher button[aria-haspopup=listbox]").click();
    const beta = await until(() => [...person.host.querySelectorAll<HTMLElement>("[role=option]")].find((o) => o.textContent!.includes("Beta Boats")));
    beta.click();
    const changed = await until(() => person.teamEvents.find((e) => e.type === "auth-team-changed"));
    expect(changed.detail).to.deep.equal({ teamId: person.ids[1] });
    await until(() => buttonText(person).includes("Beta Boats"));
  });

  it("creates a team from the list with allow-create, in a dialog, and selects it", async () => {
    const person = await personWithTeams('<auth-team-switcher allow-create></auth-team-switcher>');
    const button = person.q<HTMLButtonElement>("auth-team-switcher button[aria-haspopup=listbox]");
    button.focus();
    await sendKeys({ press: "ArrowDown" });
    await until(() => document.activeElement === person.q("[role=listbox]"));
    expect(options(person).at(-1)).to.equal("Create team…");
    await sendKeys({ press: "End" });
    await sendKeys({ press: "Enter" });
    const dialog = await until(() => person.host.querySelector<HTMLDialogElement>("dialog[open]"));
    const name = dialog.querySelector<HTMLInputElement>("input[name=team-name]")!;
    expect(name.labels?.[0]?.textContent).to.contain("Team name");
    await until(() => document.activeElement === name, 2_000, "focus on the name field");
    await sendKeys({ type: "Delta Docks" });
    await sendKeys({ press: "Enter" });

    const changed = await until(() => person.teamEvents.find((e) => e.type === "auth-team-changed"));
    await until(() => buttonText(person).includes("Delta Docks"));
    expect(dialog.open).to.equal(false);
    await untilFocused(button);
    const teams = await person.app.listTeams();
    expect(teams.find((t) => t.displayName === "Delta Docks")?.id).to.equal(changed.detail.teamId);
  });

  it("offers no create entry when the project does not let users create teams", async () => {
    const person = await personWithTeams('<auth-team-switcher allow-create></auth-team-switcher>');
    // Teams were made while allowed; now the project forbids client team creation.
    const project = await createProject({ configOverride: { "teams.allowClientTeamCreation": false } });
    const other = await signedIn(project, '<auth-team-switcher allow-create></auth-team-switcher>');
    (await until(() => other.q<HTMLButtonElement>("auth-team-switcher button[aria-haspopup=listbox]"))).click();
    await until(() => !other.q("[role=listbox]").hidden);
    expect(options(other)).to.deep.equal([]);
    expect(buttonText(other)).to.contain("No team selected");
    expect(other.host.textContent).to.contain("You are not in any team yet.");
    // Without allow-create, even an allowing project shows no entry.
    person.host.innerHTML = "<auth-team-switcher></auth-team-switcher>";
    (await until(() => person.q<HTMLButtonElement>("auth-team-switcher button[aria-haspopup=listbox]"))).click();
    await until(() => !person.q("[role=listbox]").hidden);
    expect(options(person)).to.not.include("Create team…");
  });
});
