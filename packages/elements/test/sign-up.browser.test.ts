import { expect } from "@esm-bundle/chai";
import { createClientApp } from "@latchkey/core";
import { createProject, createUser, uniqueEmail, waitForMail, type BrowserTestProject } from "./support/harness.js";
import { alerts, fill, mount, unmountAll, until, untilFocused } from "./support/mount.js";
import { axe } from "./support/axe.js";

const PASSWORD = "correct horse battery";

function fillForm(q: <E extends Element>(s: string) => E, email: string, password: string, repeat = password): void {
  fill(q<HTMLInputElement>("input[name=email]"), email);
  fill(q<HTMLInputElement>("input[name=password]"), password);
  fill(q<HTMLInputElement>("input[name=password-repeat]"), repeat);
  q<HTMLButtonElement>("button[type=submit]").click();
}

/** The message shown under an input (the alert among what describes it), or null. */
function errorOf(input: HTMLInputElement): string | null {
  const described = (input.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id));
  return described.find((el) => el?.getAttribute("role") === "alert")?.textContent ?? null;
}

/** The code of the email-verification link in the next mail to `address`. */
async function verificationCode(address: string): Promise<string> {
  const mail = await waitForMail(address);
  const link = mail.links.find((l) => l.includes("/handler/email-verification?"));
  if (!link) throw new Error(`No verification link in: ${mail.text}`);
  return new URL(link).searchParams.get("code")!;
}

/** Opens a verification link as the person would, in another tab: an app of its own, not signed in. */
async function openVerificationLink(project: BrowserTestProject, code: string): Promise<void> {
  const tab = createClientApp({ projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: project.baseUrl, tokenStore: "memory", navigate: () => {} });
  await tab.verifyEmail(code);
}

const text = (el: Element | null) => el?.textContent?.replace(/\s+/g, " ").trim() ?? "";

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

  describe("with verify-email", () => {
    it("asks to check the inbox, counts down before Resend, resends, and goes on once the address is verified", async () => {
      const project = await createProject({ email: true });
      const { q, host, events, navigations } = await mount(project, `<auth-sign-up verify-email resend-cooldown="2"></auth-sign-up>`);
      await until(() => q("input[name=email]"));
      const address = uniqueEmail();
      fillForm(q, address, PASSWORD);

      const heading = await until(() => [...host.querySelectorAll("h2")].find((h) => text(h) === "Check your inbox"));
      await untilFocused(heading);
      expect(text(q("auth-sign-up p"))).to.contain(address);
      // Not signed up as far as the page is concerned until the address is verified.
      expect(events).to.deep.equal([]);
      expect(navigations).to.deep.equal([]);
      const firstCode = await verificationCode(address);
      expect(await axe(host)).to.deep.equal([]);

      // The sign-up's mail has just gone: Resend waits, and says for how long.
      const resend = [...host.querySelectorAll<HTMLButtonElement>("button")].find((b) => text(b) === "Resend the email")!;
      expect(resend.getAttribute("aria-disabled")).to.equal("true");
      const wait = document.getElementById(resend.getAttribute("aria-describedby")!)!;
      expect(text(wait)).to.match(/^You can ask for another email in [12] s\.$/);
      await until(() => text(wait) === "You can ask for another email in 1 s.", 3_000, "the countdown");
      await until(() => resend.getAttribute("aria-disabled") === "false", 3_000, "Resend usable again");
      expect(resend.hasAttribute("aria-describedby")).to.equal(false);

      resend.focus();
      resend.click();
      await until(() => text(q("auth-sign-up p[role=status]")) === `We sent a new link to ${address}.`);
      // The button kept the focus, and waits again.
      expect(document.activeElement).to.equal(resend);
      expect(resend.getAttribute("aria-disabled")).to.equal("true");
      const secondCode = await verificationCode(address);
      expect(secondCode).to.not.equal(firstCode);

      await openVerificationLink(project, secondCode);
      const signedUp = await until(() => events.find((e) => e.type === "auth-signed-up"), 10_000, "auth-signed-up after the verification");
      expect(signedUp.detail.isNewUser).to.equal(true);
      expect(navigations).to.deep.equal(["/"]);
      expect(text(q("auth-sign-up [role=status]"))).to.equal("Your email address is verified.");
    });

    it("\"Wrong address?\" changes the new account's address, mails the new one, and the old link stops working", async () => {
      const project = await createProject({ email: true });
      const { q, host, app, events } = await mount(project, "<auth-sign-up verify-email no-redirect></auth-sign-up>");
      await until(() => q("input[name=email]"));
      const typo = uniqueEmail("typo");
      fillForm(q, typo, PASSWORD);
      await until(() => [...host.querySelectorAll("h2")].find((h) => text(h) === "Check your inbox"));
      const oldCode = await verificationCode(typo);

      [...host.querySelectorAll<HTMLButtonElement>("button")].find((b) => text(b) === "Wrong address?")!.click();
      const email = await until(() => host.querySelector<HTMLInputElement>("input[name=email]"));
      // The address to correct, ready to edit.
      expect(email.value).to.equal(typo);
      await untilFocused(email);
      expect(text(q("auth-sign-up h2"))).to.equal("Change your email address");

      const address = uniqueEmail("right");
      fill(email, address);
      q<HTMLButtonElement>("button[type=submit]").click();
      await until(() => text(q("auth-sign-up p[role=status]")) === `We sent a new link to ${address}.`);
      expect(text(q("auth-sign-up h2"))).to.equal("Check your inbox");
      expect(text(q("auth-sign-up p"))).to.contain(address);
      const code = await verificationCode(address);

      // One account, now with the right address (not verified yet), and the typo's link is dead.
      expect((await app.getUser())?.primaryEmail).to.equal(address);
      let oldLink: unknown = null;
      await openVerificationLink(project, oldCode).catch((error: unknown) => (oldLink = error));
      expect(oldLink, "the link mailed to the wrong address").to.be.instanceOf(Error);

      await openVerificationLink(project, code);
      await until(() => events.find((e) => e.type === "auth-signed-up"), 10_000, "auth-signed-up after the verification");
      const user = await app.getUser();
      expect([user?.primaryEmail, user?.primaryEmailVerified]).to.deep.equal([address, true]);
      // The password signs in with the corrected address.
      const other = createClientApp({ projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: project.baseUrl, tokenStore: "memory", navigate: () => {} });
      await other.signInWithCredential({ email: address, password: PASSWORD, noRedirect: true });
      expect((await other.getUser())?.id).to.equal(user?.id);
    });
  });
});
