import { expect } from "@esm-bundle/chai";
import { sendKeys } from "@web/test-runner-commands";
import { createProject, createUser, uniqueEmail } from "./support/harness.js";
import { mount, unmountAll, until } from "./support/mount.js";

const PASSWORD = "correct horse battery";

describe("<auth-user-button>", () => {
  afterEach(unmountAll);

  it("links to sign-in when signed out", async () => {
    const project = await createProject();
    const { q } = await mount(project, "<auth-user-button></auth-user-button>");
    const link = await until(() => q<HTMLAnchorElement>("a"));
    expect(link.textContent).to.equal("Sign in");
    expect(link.getAttribute("href")).to.equal("/handler/sign-in");
  });

  it("shows the user, opens its menu with the keyboard and signs out from it", async () => {
    const project = await createProject();
    const address = uniqueEmail();
    await createUser(project, { email: address, password: PASSWORD, displayName: "Ada Lovelace" });
    const { q, app, host, events, navigations } = await mount(project, "<auth-user-button show-name></auth-user-button>");
    await app.signInWithCredential({ email: address, password: PASSWORD, noRedirect: true });

    const button = await until(() => q<HTMLButtonElement>("button[aria-haspopup=menu]"));
    expect(button.textContent!.replace(/\s+/g, " ").trim()).to.equal("AL Ada Lovelace");
    expect(button.getAttribute("aria-expanded")).to.equal("false");
    const menu = q<HTMLElement>("[role=menu]");
    expect(menu.hidden).to.equal(true);

    button.focus();
    await sendKeys({ press: "ArrowDown" });
    await until(() => document.activeElement?.textContent === "Account settings");
    expect(button.getAttribute("aria-expanded")).to.equal("true");
    expect(menu.hidden).to.equal(false);
    expect(menu.textContent).to.contain(address);
    expect(q<HTMLAnchorElement>("a[role=menuitem]").getAttribute("href")).to.equal("/handler/account-settings");

    // Escape closes the menu and gives focus back to the button.
    await sendKeys({ press: "Escape" });
    await until(() => document.activeElement === button && menu.hidden);

    await sendKeys({ press: "Enter" });
    await until(() => document.activeElement?.textContent === "Account settings");
    await sendKeys({ press: "ArrowDown" });
    expect(document.activeElement?.textContent).to.equal("Sign out");
    await sendKeys({ press: "Enter" });

    await until(() => events.find((e) => e.type === "auth-signed-out"));
    expect(navigations).to.deep.equal(["/"]);
    expect(await app.getUser()).to.equal(null);
    await until(() => host.querySelector("a")?.textContent === "Sign in");
  });
});
