import { expect } from "@esm-bundle/chai";
import { sendKeys } from "@web/test-runner-commands";
import { createProject, createUser, uniqueEmail, waitForMail } from "./support/harness.js";
import { alerts, fill, mount, unmountAll, until } from "./support/mount.js";

const PASSWORD = "correct horse battery";

describe("<auth-sign-in>", () => {
  afterEach(unmountAll);

  it("offers email and password with labelled, autofill-ready inputs and links to sign-up and forgot-password", async () => {
    const project = await createProject({ configOverride: { "auth.allowSignUp": true } });
    const { q } = await mount(project, "<auth-sign-in></auth-sign-in>");
    const email = await until(() => q<HTMLInputElement>("input[name=email]"));
    const password = q<HTMLInputElement>("input[name=password]");
    expect(email.autocomplete).to.equal("username");
    expect(email.type).to.equal("email");
    expect(password.autocomplete).to.equal("current-password");
    expect(email.labels?.[0]?.textContent).to.contain("Email");
    expect(password.labels?.[0]?.textContent).to.contain("Password");
    expect(email.closest("form")).to.equal(password.closest("form"));
    // Light DOM: the page (and a password manager) sees the form in the document itself.
    expect(document.querySelector("auth-sign-in input[name=password]")).to.equal(password);
    expect(q<HTMLAnchorElement>("a[href='/handler/sign-up']").textContent).to.equal("Sign up");
    expect(q<HTMLAnchorElement>("a[href='/handler/forgot-password']").textContent).to.equal("Forgot password?");
  });

  it("signs in with the password, fires auth-signed-in and goes to after-sign-in", async () => {
    const project = await createProject();
    const address = uniqueEmail();
    const { userId } = await createUser(project, { email: address, password: PASSWORD, displayName: "Ada" });
    const { q, app, events, navigations } = await mount(project, "<auth-sign-in></auth-sign-in>");
    fill(await until(() => q<HTMLInputElement>("input[name=email]")), address);
    fill(q<HTMLInputElement>("input[name=password]"), PASSWORD);
    const button = q<HTMLButtonElement>("button[type=submit]");
    button.click();
    // The loading state shows while the server works.
    await until(() => button.getAttribute("aria-busy") === "true" || events.length > 0, 5_000, "the busy state");

    const signedIn = await until(() => events.find((e) => e.type === "auth-signed-in"));
    expect(signedIn.detail).to.deep.equal({ userId, isNewUser: false });
    expect(navigations).to.deep.equal(["/"]);
    const user = await app.getUser();
    expect(user?.displayName).to.equal("Ada");
  });

  it("carries after_auth_return_to: the person lands where they were going", async () => {
    const project = await createProject();
    const address = uniqueEmail();
    await createUser(project, { email: address, password: PASSWORD });
    const { q, navigations } = await mount(project, "<auth-sign-in></auth-sign-in>", { currentUrl: `${location.origin}/handler/sign-in?after_auth_return_to=%2Fbilling%3Ftab%3D2` });
    fill(await until(() => q<HTMLInputElement>("input[name=email]")), address);
    fill(q<HTMLInputElement>("input[name=password]"), PASSWORD);
    q<HTMLButtonElement>("button[type=submit]").click();
    await until(() => navigations.length > 0);
    expect(navigations).to.deep.equal(["/billing?tab=2"]);
  });

  it("says the email or password is wrong without saying which, in an alert, and stays", async () => {
    const project = await createProject();
    const address = uniqueEmail();
    await createUser(project, { email: address, password: PASSWORD });

    for (const [email, password] of [[address, "wrong password!"], [uniqueEmail(), PASSWORD]] as const) {
      const { q, host, navigations, events } = await mount(project, "<auth-sign-in></auth-sign-in>");
      fill(await until(() => q<HTMLInputElement>("input[name=email]")), email);
      fill(q<HTMLInputElement>("input[name=password]"), password);
      q<HTMLButtonElement>("button[type=submit]").click();
      await until(() => alerts(host).length > 0);
      expect(alerts(host)).to.deep.equal(["Wrong email or password."]);
      expect(q<HTMLInputElement>("input[name=email]").getAttribute("aria-invalid")).to.equal("false");
      expect(navigations).to.deep.equal([]);
      expect(events).to.deep.equal([]);
      unmountAll();
    }
  });

  it("can be used with the keyboard alone", async () => {
    const project = await createProject();
    const address = uniqueEmail();
    const { userId } = await createUser(project, { email: address, password: PASSWORD });
    const { q, events } = await mount(project, "<auth-sign-in no-redirect></auth-sign-in>");
    (await until(() => q<HTMLInputElement>("input[name=email]"))).focus();
    await sendKeys({ type: address });
    await sendKeys({ press: "Tab" });
    await sendKeys({ type: PASSWORD });
    await sendKeys({ press: "Enter" });
    const signedIn = await until(() => events.find((e) => e.type === "auth-signed-in"));
    expect(signedIn.detail.userId).to.equal(userId);
  });

  it("shows only the emailed-code method when passwords are off, and signs in with the mailed code", async () => {
    const project = await createProject({ email: true, configOverride: { "auth.password.allowSignIn": false, "auth.otp.allowSignIn": true } });
    const { q, host, events, navigations } = await mount(project, "<auth-sign-in></auth-sign-in>");
    const email = await until(() => q<HTMLInputElement>("input[name=email]"));
    expect(host.querySelector("input[type=password]")).to.equal(null);
    expect(host.querySelector("a[href='/handler/forgot-password']")).to.equal(null);

    const address = uniqueEmail();
    fill(email, address);
    q<HTMLButtonElement>("button[type=submit]").click();
    const codeInput = await until(() => host.querySelector<HTMLInputElement>("input[name=code]"));
    expect(codeInput.autocomplete).to.equal("one-time-code");
    expect(host.textContent).to.contain(address);
    // Focus moves to the new step, for keyboard and screen-reader users.
    await until(() => document.activeElement === codeInput, 2_000, "focus on the code input");

    const mail = await waitForMail(address);
    expect(mail.code).to.be.a("string");
    fill(codeInput, mail.code!);
    q<HTMLButtonElement>("button[type=submit]").click();
    const signedIn = await until(() => events.find((e) => e.type === "auth-signed-in"));
    // A new address becomes a new user: it goes to after-sign-up (default: after-sign-in, home).
    expect(signedIn.detail.isNewUser).to.equal(true);
    expect(navigations).to.deep.equal(["/"]);
  });

  it("rejects a wrong code next to the code field", async () => {
    const project = await createProject({ email: true, configOverride: { "auth.password.allowSignIn": false, "auth.otp.allowSignIn": true } });
    const { q, host } = await mount(project, "<auth-sign-in></auth-sign-in>");
    const address = uniqueEmail();
    fill(await until(() => q<HTMLInputElement>("input[name=email]")), address);
    q<HTMLButtonElement>("button[type=submit]").click();
    const codeInput = await until(() => host.querySelector<HTMLInputElement>("input[name=code]"));
    const mail = await waitForMail(address);
    fill(codeInput, mail.code === "AAAAAA" ? "BBBBBB" : "AAAAAA");
    q<HTMLButtonElement>("button[type=submit]").click();
    await until(() => codeInput.getAttribute("aria-invalid") === "true");
    const error = document.getElementById(codeInput.getAttribute("aria-describedby")!)!;
    expect(error.getAttribute("role")).to.equal("alert");
    expect(error.textContent).to.equal("This code is not valid. Check it or ask for a new one.");
  });

  it("switches between password and emailed code when both are on, and shows enabled OAuth providers", async () => {
    const project = await createProject({
      configOverride: {
        "auth.otp.allowSignIn": true,
        "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true },
        "auth.oauth.providers.google": { type: "google", isShared: true, allowSignIn: true },
      },
    });
    const { q, host } = await mount(project, "<auth-sign-in></auth-sign-in>");
    await until(() => q("input[name=password]"));
    const oauth = [...host.querySelectorAll("[part=oauth-button]")].map((b) => b.textContent);
    expect(oauth).to.have.members(["Continue with GitHub", "Continue with Google"]);
    // Each provider's mark comes from the Latchkey server, decorative (the text names the provider).
    const icons = [...host.querySelectorAll<HTMLImageElement>("[part=oauth-button] img")];
    expect(icons.map((img) => new URL(img.src).pathname).sort()).to.deep.equal(["/oauth-icons/github.svg", "/oauth-icons/google.svg"]);
    await until(() => icons.every((img) => img.complete && img.naturalWidth > 0));
    expect(icons.every((img) => img.getAttribute("alt") === "")).to.equal(true);
    q<HTMLButtonElement>("button.lk-link").click();
    await until(() => !host.querySelector("input[name=password]"));
    expect(q("button[type=submit]").textContent).to.equal("Send sign-in code");
  });

  it("offers passkeys when the project enables them: a button, and the browser's passkey suggestions on the email field", async () => {
    const project = await createProject({ configOverride: { "auth.passkey.allowSignIn": true } });
    const { q } = await mount(project, "<auth-sign-in></auth-sign-in>");
    const email = await until(() => q<HTMLInputElement>("input[name=email]"));
    expect(email.getAttribute("autocomplete")).to.equal("username webauthn");
    expect(q("[part=passkey-button]").textContent).to.equal("Sign in with a passkey");
  });

  it("shows a signed-in person who they are, with Continue and Sign out, instead of the form", async () => {
    const project = await createProject();
    const address = uniqueEmail();
    await createUser(project, { email: address, password: "correct horse battery" });
    const page = await mount(project, "<auth-sign-in></auth-sign-in>");
    await until(() => page.q("input[name=password]"));
    await page.app.signInWithCredential({ email: address, password: "correct horse battery", noRedirect: true });
    const status = await until(() => page.host.querySelector("[role=status]"));
    expect(status.textContent).to.equal(`You are signed in as ${address}.`);
    expect(page.host.querySelector("input")).to.equal(null);
    const next = page.host.querySelector<HTMLAnchorElement>("a.lk-button")!;
    expect([next.textContent, new URL(next.href).pathname]).to.deep.equal(["Continue", "/"]);
    [...page.host.querySelectorAll<HTMLButtonElement>("button")].find((b) => b.textContent === "Sign out")!.click();
    // Signed out, the form is back.
    await until(() => page.q("input[name=password]"));
    expect(await page.app.getUser()).to.equal(null);
  });

  it("hides the sign-up link when the project does not allow sign-up", async () => {
    const project = await createProject({ configOverride: { "auth.allowSignUp": false } });
    const { q, host } = await mount(project, "<auth-sign-in></auth-sign-in>");
    await until(() => q("input[name=password]"));
    expect(host.querySelector("a[href='/handler/sign-up']")).to.equal(null);
  });
});
