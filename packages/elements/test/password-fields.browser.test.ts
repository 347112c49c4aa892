import { expect } from "@esm-bundle/chai";
import { sendKeys } from "@web/test-runner-commands";
import { createProject, createUser, uniqueEmail, waitForMail } from "./support/harness.js";
import { mount, unmountAll, until, type Mounted } from "./support/mount.js";
import { axe } from "./support/axe.js";

/** Issue 16 §3: a new password's rules shown before any failure, and the "Show password" toggle. */

const PASSWORD = "correct horse battery";

const text = (el: Element) => el.textContent!.replace(/\s+/g, " ").trim();

/** Each rule as a screen reader reads it ("Met: …" / "Not met: …"), in order. */
function rules(page: Mounted): string[] {
  return [...page.host.querySelectorAll("[part=password-rules] li")].map(text);
}

/** Types into `input` with the keyboard, as a person does. */
async function type(input: HTMLInputElement, value: string): Promise<void> {
  input.focus();
  await sendKeys({ type: value });
}

async function expectRulesTickAsTyped(page: Mounted): Promise<void> {
  const password = page.q<HTMLInputElement>("input[name=password]");
  const list = page.q("[part=password-rules]");
  // Shown from the start, and read with the field.
  expect(list.checkVisibility()).to.equal(true);
  expect(password.getAttribute("aria-describedby")?.split(" ")).to.include(list.id);
  expect(rules(page)).to.deep.equal(["Not met: 8 to 70 characters", "Not met: Both passwords match"]);

  await type(password, "short");
  expect(rules(page)).to.deep.equal(["Not met: 8 to 70 characters", "Not met: Both passwords match"]);
  await type(password, " but long now");
  await until(() => rules(page)[0] === "Met: 8 to 70 characters", 2_000, "the length rule met");
  await type(page.q<HTMLInputElement>("input[name=password-repeat]"), "short but long now");
  await until(() => rules(page)[1] === "Met: Both passwords match", 2_000, "the repetition rule met");
  // Nothing was sent and nothing failed: no alert.
  expect(page.host.querySelector("[role=alert]")).to.equal(null);
}

describe("new-password fields", () => {
  afterEach(unmountAll);

  it("sign-up lists the rules before anything is typed and marks each met as the person types", async () => {
    const project = await createProject();
    const page = await mount(project, "<auth-sign-up></auth-sign-up>");
    await until(() => page.q("input[name=password]"));
    expect(await axe(page.host)).to.deep.equal([]);
    await expectRulesTickAsTyped(page);
  });

  it("the password-reset page lists the same rules", async () => {
    const project = await createProject({ email: true });
    const address = uniqueEmail();
    await createUser(project, { email: address, password: PASSWORD });
    const { app } = await mount(project, "");
    await app.sendForgotPasswordEmail(address);
    const link = (await waitForMail(address)).links.find((l) => l.includes("/handler/password-reset?"))!;
    unmountAll();
    const page = await mount(project, `<auth-password-reset code="${new URL(link).searchParams.get("code")}"></auth-password-reset>`);
    await until(() => page.q("input[name=password]"));
    await expectRulesTickAsTyped(page);
  });

  it("password settings list the rules, and one toggle shows the current and the new passwords", async () => {
    const project = await createProject();
    const address = uniqueEmail();
    await createUser(project, { email: address, password: PASSWORD });
    const page = await mount(project, "");
    await page.app.signInWithCredential({ email: address, password: PASSWORD, noRedirect: true });
    page.host.innerHTML = "<auth-password-settings></auth-password-settings>";
    await until(() => page.q("input[name=current-password]"));
    const toggle = page.q<HTMLButtonElement>("[part=show-password]");
    const inputs = ["current-password", "password", "password-repeat"].map((name) => page.q<HTMLInputElement>(`input[name=${name}]`));
    expect(toggle.getAttribute("aria-controls")!.split(" ")).to.deep.equal(inputs.map((input) => input.id));
    toggle.click();
    expect(inputs.map((input) => input.type)).to.deep.equal(["text", "text", "text"]);
    await expectRulesTickAsTyped(page);
  });

  it("Show password switches the password input to text and back, keeping what password managers read", async () => {
    const project = await createProject();
    const page = await mount(project, "<auth-sign-in></auth-sign-in>");
    const password = await until(() => page.q<HTMLInputElement>("input[name=password]"));
    const toggle = page.q<HTMLButtonElement>("[part=show-password]");
    expect([toggle.type, text(toggle), toggle.getAttribute("aria-pressed")]).to.deep.equal(["button", "Show password", "false"]);
    expect(toggle.getAttribute("aria-controls")).to.equal(password.id);
    // After the password field: Tab still goes from the email field to the password field.
    expect(password.compareDocumentPosition(toggle) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);

    await type(password, PASSWORD);
    toggle.focus();
    await sendKeys({ press: "Space" });
    expect([password.type, password.value, password.autocomplete, password.name]).to.deep.equal(["text", PASSWORD, "current-password", "password"]);
    // The same name in both states; the state is aria-pressed.
    expect([text(toggle), toggle.getAttribute("aria-pressed")]).to.deep.equal(["Show password", "true"]);
    expect(document.activeElement).to.equal(toggle);
    expect(await axe(page.host)).to.deep.equal([]);

    await sendKeys({ press: "Enter" });
    expect([password.type, toggle.getAttribute("aria-pressed")]).to.deep.equal(["password", "false"]);
    // Still one form: pressing the toggle submitted nothing.
    expect(page.host.querySelector("[role=alert]")).to.equal(null);
  });
});
