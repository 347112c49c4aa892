import { expect } from "@esm-bundle/chai";
import { base64, newTotpSecret, totpCode } from "../src/base/totp.js";
import { MFA_ATTEMPT_CODE_KEY } from "../src/index.js";
import { createProject, createUser, uniqueEmail } from "./support/harness.js";
import { alerts, fill, mount, unmountAll, until } from "./support/mount.js";

const PASSWORD = "correct horse battery";

/** A user with two-factor sign-in on, and the secret their authenticator app holds. */
async function userWithTotp() {
  const project = await createProject();
  const email = uniqueEmail();
  await createUser(project, { email, password: PASSWORD });
  const setup = await mount(project, "<div></div>");
  await setup.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
  const secret = newTotpSecret();
  await setup.app.updateUser({ totpSecretBase64: base64(secret) });
  unmountAll();
  return { project, email, secret };
}

describe("two-factor sign-in", () => {
  afterEach(() => {
    unmountAll();
    sessionStorage.removeItem(MFA_ATTEMPT_CODE_KEY);
  });

  it("sends a TOTP user from <auth-sign-in> to the mfa page, where the app's code signs them in", async () => {
    const { project, email, secret } = await userWithTotp();
    const signIn = await mount(project, "<auth-sign-in></auth-sign-in>");
    fill(await until(() => signIn.q<HTMLInputElement>("input[name=email]")), email);
    fill(signIn.q<HTMLInputElement>("input[name=password]"), PASSWORD);
    signIn.q<HTMLButtonElement>("button[type=submit]").click();
    await until(() => signIn.navigations.length > 0);
    expect(signIn.navigations).to.deep.equal(["/handler/mfa"]);
    expect(sessionStorage.getItem(MFA_ATTEMPT_CODE_KEY)).to.be.a("string").and.not.equal("");
    expect(await signIn.app.getUser()).to.equal(null);
    unmountAll();

    const mfa = await mount(project, "<auth-mfa></auth-mfa>");
    const code = await until(() => mfa.q<HTMLInputElement>("input[name=code]"));
    expect(code.autocomplete).to.equal("one-time-code");
    fill(code, await totpCode(secret));
    mfa.q<HTMLButtonElement>("button[type=submit]").click();
    const signedIn = await until(() => mfa.events.find((e) => e.type === "auth-signed-in"));
    expect(signedIn.detail.isNewUser).to.equal(false);
    expect(mfa.navigations).to.deep.equal(["/"]);
    expect((await mfa.app.getUser())?.primaryEmail).to.equal(email);
    expect(sessionStorage.getItem(MFA_ATTEMPT_CODE_KEY)).to.equal(null);
  });

  it("says a wrong code is invalid, next to the code field", async () => {
    const { project, email, secret } = await userWithTotp();
    const signIn = await mount(project, "<div></div>");
    await signIn.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true }).catch((error: { details?: { attempt_code?: string } }) => {
      sessionStorage.setItem(MFA_ATTEMPT_CODE_KEY, error.details!.attempt_code!);
    });
    const mfa = await mount(project, "<auth-mfa></auth-mfa>");
    const right = await totpCode(secret);
    fill(await until(() => mfa.q<HTMLInputElement>("input[name=code]")), right === "000000" ? "111111" : "000000");
    mfa.q<HTMLButtonElement>("button[type=submit]").click();
    await until(() => alerts(mfa.host).length > 0);
    expect(alerts(mfa.host)).to.deep.equal(["The code is invalid. Please try again."]);
    expect(mfa.events).to.deep.equal([]);
  });

  it("turns two-factor sign-in on from <auth-mfa-settings> only with a code of the shown secret", async () => {
    const project = await createProject();
    const email = uniqueEmail();
    await createUser(project, { email, password: PASSWORD });
    const page = await mount(project, "<auth-mfa-settings></auth-mfa-settings>");
    await page.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    (await until(() => [...page.host.querySelectorAll("button")].find((b) => b.textContent === "Turn on two-factor authentication"), 10_000, `the turn-on button in ${page.host.innerHTML}`)).click();
    const key = await until(() => page.host.querySelector(".lk-secret")?.textContent?.replace(/\s/g, ""));
    expect(page.q("[part=qr] svg")).to.exist;
    const secret = decodeBase32(key);

    fill(page.q<HTMLInputElement>("input[name=code]"), "123456" === (await totpCode(secret)) ? "654321" : "123456");
    page.q<HTMLButtonElement>("button[type=submit]").click();
    await until(() => alerts(page.host).length > 0);
    expect((await page.app.getUser())?.isMultiFactorRequired).to.equal(false);

    fill(page.q<HTMLInputElement>("input[name=code]"), await totpCode(secret));
    page.q<HTMLButtonElement>("button[type=submit]").click();
    await until(() => page.events.find((e) => e.type === "auth-mfa-changed"));
    expect((await page.app.getUser())?.isMultiFactorRequired).to.equal(true);

    // Turning it off asks first: cancelled, it stays on; confirmed, it goes off.
    const turnOff = () => [...page.host.querySelectorAll<HTMLButtonElement>("button")].find((b) => b.textContent === "Turn off two-factor authentication");
    (await until(turnOff)).click();
    let question = await until(() => page.host.querySelector<HTMLDialogElement>("dialog[open]"));
    expect(question.querySelector("h3")!.textContent).to.equal("Turn off two-factor authentication?");
    [...question.querySelectorAll("button")].find((b) => b.textContent === "Cancel")!.click();
    await until(() => !page.host.querySelector("dialog"));
    expect((await page.app.getUser())?.isMultiFactorRequired).to.equal(true);
    turnOff()!.click();
    question = await until(() => page.host.querySelector<HTMLDialogElement>("dialog[open]"));
    [...question.querySelectorAll("button")].find((b) => b.textContent === "Turn off")!.click();
    await until(() => page.events.filter((e) => e.type === "auth-mfa-changed").length === 2);
    expect((await page.app.getUser())?.isMultiFactorRequired).to.equal(false);
  });
});

function decodeBase32(text: string): Uint8Array<ArrayBuffer> {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}
