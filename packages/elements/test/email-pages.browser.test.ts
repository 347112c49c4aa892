import { expect } from "@esm-bundle/chai";
import { createProject, createUser, uniqueEmail, waitForMail } from "./support/harness.js";
import { alerts, fill, mount, unmountAll, until } from "./support/mount.js";

const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a brand new passphrase";

const codeOf = (link: string) => new URL(link).searchParams.get("code")!;

describe("forgot password → password reset", () => {
  afterEach(unmountAll);

  it("mails a link whose page sets the new password once", async () => {
    const project = await createProject({ email: true });
    const address = uniqueEmail();
    await createUser(project, { email: address, password: PASSWORD });

    const forgot = await mount(project, "<auth-forgot-password></auth-forgot-password>");
    fill(await until(() => forgot.q<HTMLInputElement>("input[name=email]")), address);
    forgot.q<HTMLButtonElement>("button[type=submit]").click();
    await until(() => forgot.events.find((e) => e.type === "auth-reset-email-sent"));
    expect(forgot.host.textContent).to.contain(`If an account exists for ${address}`);

    const mail = await waitForMail(address);
    const link = mail.links.find((l) => l.includes("/handler/password-reset?"))!;
    expect(link).to.be.a("string");
    unmountAll();

    const reset = await mount(project, `<auth-password-reset code="${codeOf(link)}"></auth-password-reset>`);
    fill(await until(() => reset.q<HTMLInputElement>("input[name=password]")), NEW_PASSWORD);
    fill(reset.q<HTMLInputElement>("input[name=password-repeat]"), NEW_PASSWORD);
    reset.q<HTMLButtonElement>("button[type=submit]").click();
    await until(() => reset.events.find((e) => e.type === "auth-password-reset"));
    expect(reset.host.textContent).to.contain("Your password has been reset.");

    // The new password works, the old one no longer does.
    await reset.app.signInWithCredential({ email: address, password: NEW_PASSWORD, noRedirect: true });
    let oldError: unknown;
    await reset.app.signInWithCredential({ email: address, password: PASSWORD, noRedirect: true }).catch((e: unknown) => (oldError = e));
    expect((oldError as { code?: string }).code).to.equal("EMAIL_PASSWORD_MISMATCH");
    unmountAll();

    // The link is single-use: opening it again says so before anyone types.
    const again = await mount(project, `<auth-password-reset code="${codeOf(link)}"></auth-password-reset>`);
    await until(() => alerts(again.host).length > 0);
    expect(alerts(again.host)).to.deep.equal(["This code has already been used."]);
    expect(again.host.querySelector("input")).to.equal(null);
  });

  it("answers an unknown address exactly like a known one", async () => {
    const project = await createProject({ email: true });
    const { q, host, events } = await mount(project, "<auth-forgot-password></auth-forgot-password>");
    const address = uniqueEmail();
    fill(await until(() => q<HTMLInputElement>("input[name=email]")), address);
    q<HTMLButtonElement>("button[type=submit]").click();
    await until(() => events.length > 0);
    expect(host.textContent).to.contain(`If an account exists for ${address}`);
  });

  it("says a link without a code is unusable", async () => {
    const project = await createProject();
    const { host } = await mount(project, "<auth-password-reset></auth-password-reset>");
    await until(() => alerts(host).length > 0);
    expect(alerts(host)).to.deep.equal(["This link has no reset code. Ask for a new link."]);
  });
});

describe("<auth-email-verification> and <auth-magic-link-callback>", () => {
  afterEach(unmountAll);

  it("verifies the address of the sign-up mail's link", async () => {
    const project = await createProject({ email: true });
    const address = uniqueEmail();
    const signUp = await mount(project, "<div></div>");
    await signUp.app.signUpWithCredential({ email: address, password: PASSWORD, noRedirect: true });
    const link = (await waitForMail(address)).links.find((l) => l.includes("/handler/email-verification?"))!;

    const page = await mount(project, `<auth-email-verification code="${codeOf(link)}"></auth-email-verification>`);
    await until(() => page.events.find((e) => e.type === "auth-email-verified"));
    expect(page.host.textContent).to.contain("Your email has been verified.");
    expect((await signUp.app.getUser())?.primaryEmailVerified).to.equal(true);
  });

  it("signs in with the magic link's code and goes to after-sign-in", async () => {
    const project = await createProject({ email: true, configOverride: { "auth.otp.allowSignIn": true } });
    const address = uniqueEmail();
    const { userId } = await createUser(project, { email: address, password: PASSWORD, primaryEmailVerified: true });
    const sender = await mount(project, "<div></div>");
    await sender.app.sendMagicLinkEmail(address);
    const link = (await waitForMail(address)).links.find((l) => l.includes("/handler/magic-link-callback?"))!;

    const page = await mount(project, `<auth-magic-link-callback code="${codeOf(link)}"></auth-magic-link-callback>`);
    const signedIn = await until(() => page.events.find((e) => e.type === "auth-signed-in"));
    expect(signedIn.detail).to.deep.equal({ userId, isNewUser: false });
    expect(page.navigations).to.deep.equal(["/"]);
    expect((await page.app.getUser())?.id).to.equal(userId);
  });

  it("shows a readable error for a code that does not exist", async () => {
    const project = await createProject({ configOverride: { "auth.otp.allowSignIn": true } });
    const page = await mount(project, `<auth-magic-link-callback code="${"x".repeat(45)}"></auth-magic-link-callback>`);
    await until(() => alerts(page.host).length > 0);
    expect(alerts(page.host)[0]).to.match(/not valid|not found/i);
    expect(page.navigations).to.deep.equal([]);
  });
});
