import { expect } from "@esm-bundle/chai";
import { createProject, createUser, uniqueEmail, waitForMail } from "./support/harness.js";
import { alerts, fill, mount, unmountAll, until } from "./support/mount.js";

const PASSWORD = "correct horse battery";

function fillForm(q: <E extends Element>(s: string) => E, email: string, password: string, repeat = password): void {
  fill(q<HTMLInputElement>("input[name=email]"), email);
  fill(q<HTMLInputElement>("input[name=password]"), password);
  fill(q<HTMLInputElement>("input[name=password-repeat]"), repeat);
  q<HTMLButtonElement>("button[type=submit]").click();
}

/** The message shown under an input (its aria-describedby alert), or null. */
function errorOf(input: HTMLInputElement): string | null {
  const id = input.getAttribute("aria-describedby");
  return id ? document.getElementById(id)!.textContent : null;
}

describe("<auth-sign-up>", () => {
  afterEach(unmountAll);

  it("creates the account, fires auth-signed-up, goes to after-sign-up and mails a verification link", async () => {
    const project = await createProject({ email: true });
    const { q, app, events, navigations } = await mount(project, "<auth-sign-up></auth-sign-up>");
    const email = await until(() => q<HTMLInputElement>("input[name=email]"));
    expect(email.autocomplete).to.equal("email");
    expect(q<HTMLInputElement>("input[name=password]").autocomplete).to.equal("new-password");
    expect(q<HTMLInputElement>("input[name=password-repeat]").autocomplete).to.equal("new-password");

    const address = uniqueEmail();
    fillForm(q, address, PASSWORD);
    const signedUp = await until(() => events.find((e) => e.type === "auth-signed-up"));
    expect(signedUp.detail.isNewUser).to.equal(true);
    expect(navigations).to.deep.equal(["/"]);
    const user = await app.getUser();
    expect(user?.primaryEmail).to.equal(address);
    expect(user?.primaryEmailVerified).to.equal(false);

    const mail = await waitForMail(address);
    const link = mail.links.find((l) => l.includes("/handler/email-verification?"));
    expect(link, "a link to this app's email-verification page").to.be.a("string");
  });

  it("checks the repetition and the length before sending anything", async () => {
    const project = await createProject();
    const { q, events, navigations } = await mount(project, "<auth-sign-up></auth-sign-up>");
    await until(() => q("input[name=email]"));
    const address = uniqueEmail();

    fillForm(q, address, PASSWORD, PASSWORD + "!");
    await until(() => errorOf(q<HTMLInputElement>("input[name=password-repeat]")));
    expect(errorOf(q<HTMLInputElement>("input[name=password-repeat]"))).to.equal("Passwords do not match.");

    fillForm(q, address, "short", "short");
    await until(() => errorOf(q<HTMLInputElement>("input[name=password]")));
    expect(errorOf(q<HTMLInputElement>("input[name=password]"))).to.equal("The password must be at least 8 characters long.");

    // Nothing was sent: the address is still free, so it signs up now.
    fillForm(q, address, PASSWORD);
    const signedUp = await until(() => events.find((e) => e.type === "auth-signed-up"));
    expect(signedUp.detail.isNewUser).to.equal(true);
    expect(events).to.have.length(1);
    expect(navigations).to.deep.equal(["/"]);
  });

  it("says next to the email field that the address already has an account", async () => {
    const project = await createProject();
    const address = uniqueEmail();
    await createUser(project, { email: address, password: PASSWORD });
    const { q, events } = await mount(project, "<auth-sign-up></auth-sign-up>");
    await until(() => q("input[name=email]"));
    fillForm(q, address, PASSWORD);
    const email = q<HTMLInputElement>("input[name=email]");
    await until(() => email.getAttribute("aria-invalid") === "true");
    expect(errorOf(email)).to.equal("An account with this email already exists.");
    expect(events).to.deep.equal([]);
  });

  it("explains that sign-up is closed when the project does not allow it", async () => {
    const project = await createProject({ configOverride: { "auth.allowSignUp": false } });
    const { q, host } = await mount(project, "<auth-sign-up></auth-sign-up>");
    await until(() => q("h2"));
    await until(() => !host.querySelector("[role=status]"));
    expect(host.querySelector("form")).to.equal(null);
    expect(host.textContent).to.contain("New accounts cannot be created here.");
    expect(alerts(host)).to.deep.equal([]);
  });
});
