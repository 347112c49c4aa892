import { expect } from "@esm-bundle/chai";
import { setViewport } from "@web/test-runner-commands";
import { createProject, createUser } from "./support/harness.js";
import { mount, unmountAll, until } from "./support/mount.js";

const PASSWORD = "correct horse battery";
const LONG_NAME = "Maximiliana Wolfeschlegelsteinhausenbergerdorff-Featherstonehaugh de la Cruz y Montenegro";

/** A long sign-in address, as people have: their personal team is named after it ("<email>'s Team"). */
function longEmail(): string {
  return `maximiliana.wolfeschlegelsteinhausenbergerdorff-${crypto.randomUUID()}@a-rather-long-company-domain.example.com`;
}

/** Every avatar on the page is a circle (as wide as high) with its initials on one line. */
function checkAvatars(root: Element, atLeast: number): void {
  const avatars = [...root.querySelectorAll<HTMLElement>(".lk-avatar")].filter((a) => a.getClientRects().length);
  expect(avatars.length, "avatars shown").to.be.at.least(atLeast);
  for (const avatar of avatars) {
    const box = avatar.getBoundingClientRect();
    expect(Math.abs(box.width - box.height), `avatar ${avatar.textContent} is ${box.width}×${box.height}`).to.be.lessThan(0.5);
    const range = document.createRange();
    range.selectNodeContents(avatar);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    expect(lines.size, `initials ${avatar.textContent} on one line`).to.equal(1);
  }
}

describe("long names", () => {
  afterEach(async () => {
    unmountAll();
    await setViewport({ width: 800, height: 600 });
  });

  for (const width of [360, 1280]) {
    it(`ellipsise with the full name as a tooltip, keep avatars round and never widen a ${width} px page`, async () => {
      await setViewport({ width, height: 800 });
      const project = await createProject({ configOverride: { "teams.createPersonalTeamOnSignUp": true, "teams.allowClientTeamCreation": true } });
      const email = longEmail();
      await createUser(project, { email, password: PASSWORD, primaryEmailVerified: true });
      const page = await mount(project, "");
      await page.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
      const team = `${email}'s Team`;
      page.host.innerHTML = `<auth-user-button show-name></auth-user-button>
        <auth-team-switcher></auth-team-switcher>
        <auth-team-settings></auth-team-settings>
        <auth-account-settings hide-profile hide-emails hide-password hide-mfa hide-sessions hide-notifications></auth-account-settings>`;

      // The user has no display name: the button shows the address.
      const userName = await until(() => page.q("auth-user-button .lk-name"));
      expect(userName.title).to.equal(email);
      expect(userName.textContent).to.equal(email);
      const teamName = await until(() => page.q("auth-team-switcher button .lk-name"));
      expect(teamName.title).to.equal(team);
      await until(() => page.host.querySelector("auth-team-settings .lk-list .lk-name"));
      await until(() => page.host.querySelector("auth-team-list-settings .lk-list .lk-name"));

      page.q<HTMLButtonElement>("auth-team-switcher button[aria-haspopup=listbox]").click();
      await until(() => !page.q("auth-team-switcher [role=listbox]").hidden);

      // Every name shown in one line, cut with an ellipsis where it does not fit, the full name in its title.
      const names = [...page.host.querySelectorAll<HTMLElement>(".lk-name")].filter((n) => n.getClientRects().length);
      expect(names.length).to.be.greaterThan(4);
      for (const name of names) {
        expect(name.title, name.outerHTML).to.equal(name.textContent!.trim());
        expect(getComputedStyle(name).textOverflow).to.equal("ellipsis");
        expect(name.getClientRects().length, `${name.title} on one line`).to.equal(1);
      }
      const cut = names.filter((n) => n.scrollWidth > n.clientWidth).map((n) => n.closest("auth-user-button, auth-team-switcher, auth-team-settings, auth-team-list-settings")!.localName);
      expect([...new Set(cut)], "elements whose long names are ellipsised").to.include.members(
        width === 360 ? ["auth-user-button", "auth-team-switcher", "auth-team-settings", "auth-team-list-settings"] : ["auth-user-button", "auth-team-switcher"],
      );

      checkAvatars(page.host, 4);
      expect(document.documentElement.scrollWidth, "page width").to.be.at.most(innerWidth);
      // The open list stays inside the page too.
      expect(page.q("auth-team-switcher [role=listbox]").getBoundingClientRect().right).to.be.at.most(innerWidth);
    });
  }

  it("a long display name squeezes neither the avatar nor the page", async () => {
    await setViewport({ width: 360, height: 800 });
    const project = await createProject();
    const email = longEmail();
    await createUser(project, { email, password: PASSWORD, displayName: LONG_NAME });
    const page = await mount(project, "<auth-user-button show-name></auth-user-button>");
    await page.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    const name = await until(() => page.host.querySelector<HTMLElement>("auth-user-button .lk-name"));
    expect(name.title).to.equal(LONG_NAME);
    expect(name.scrollWidth).to.be.greaterThan(name.clientWidth);
    expect(page.q("auth-user-button .lk-avatar").textContent).to.equal("MW");
    checkAvatars(page.host, 1);
    expect(document.documentElement.scrollWidth).to.be.at.most(innerWidth);
  });
});

