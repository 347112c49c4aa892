import { expect } from "@esm-bundle/chai";
import { sendKeys, sendMouse } from "@web/test-runner-commands";
import { createProject, createUser, uniqueEmail, type BrowserTestProject } from "./support/harness.js";
import { fill, mount, unmountAll, until, type Mounted } from "./support/mount.js";
import { axe } from "./support/axe.js";

/**
 * `<auth-account-settings>` never lets a person remove their last way to sign in (issue 31: one click on
 * "Stop using for sign-in" used to lock the user out): the button is held back with the reason shown, other
 * ways free it, every such change asks first, and cancelling changes nothing. Against the real server.
 */

const PASSWORD = "correct horse battery";
const ONLY_ADDRESS = "This address is your only way to sign in. To remove it or stop using it for sign-in, first add another way to sign in.";

const text = (element: Element) => (element as HTMLElement).innerText.replace(/\s+/g, " ").trim();

function button(root: Element, label: string): HTMLButtonElement {
  const found = [...root.querySelectorAll<HTMLButtonElement>("button")].find((b) => b.textContent!.trim() === label);
  if (!found) throw new Error(`No "${label}" button in ${root.textContent}`);
  return found;
}

/** The email list's row showing `address`. */
function emailRow(page: Mounted, address: string): HTMLLIElement | undefined {
  return [...page.host.querySelectorAll<HTMLLIElement>("auth-email-settings li")].find((li) => li.textContent!.includes(address));
}

/** The reason a control is held back: the visible note it points to with aria-describedby. */
function reasonFor(control: Element): HTMLElement | null {
  const ids = control.getAttribute("aria-describedby")?.split(" ") ?? [];
  const reason = ids.map((id) => document.getElementById(id)).find((el) => el?.getAttribute("part") === "reason") ?? null;
  return reason && reason.checkVisibility() && reason.getBoundingClientRect().height > 0 ? reason : null;
}

/**
 * A person's click with the mouse, where the control is on screen (a disabled button ignores it). The page
 * may still be moving (a section re-rendering above): the click waits until the control stays put for two
 * frames and is what the mouse would hit.
 */
async function realClick(element: Element): Promise<void> {
  // At once: a page may scroll smoothly, and the box must be read where the mouse will find it.
  element.scrollIntoView({ block: "center", behavior: "instant" });
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  let box = element.getBoundingClientRect();
  for (let settled = 0, frames = 0; settled < 2 && frames < 300; frames++) {
    await frame();
    const now = element.getBoundingClientRect();
    settled = now.x === box.x && now.y === box.y ? settled + 1 : 0;
    box = now;
  }
  const [x, y] = [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)];
  expect(element.contains(document.elementFromPoint(x, y)), `the mouse would hit ${element.outerHTML.slice(0, 80)}`).to.equal(true);
  await sendMouse({ type: "click", position: [x, y] });
}

/** The open confirmation dialog, once it shows. */
const dialogOf = (page: Mounted) => until(() => page.host.querySelector<HTMLDialogElement>("dialog[open]"), 10_000, "the confirmation dialog");

/** Signs out, then signs in with `<auth-sign-in>` as a person would; resolves with the user id, or the alert shown. */
async function signOutAndIn(page: Mounted, project: BrowserTestProject, email: string): Promise<string> {
  await page.app.signOut();
  unmountAll();
  const signIn = await mount(project, "<auth-sign-in></auth-sign-in>");
  fill(await until(() => signIn.q<HTMLInputElement>("input[name=email]")), email);
  fill(signIn.q<HTMLInputElement>("input[name=password]"), PASSWORD);
  signIn.q<HTMLButtonElement>("button[type=submit]").click();
  const outcome = await until(() => signIn.events.find((e) => e.type === "auth-signed-in")?.detail.userId ?? signIn.host.querySelector("[role=alert]")?.textContent);
  return outcome as string;
}

describe("<auth-account-settings>: the last way to sign in", () => {
  afterEach(() => {
    unmountAll();
    history.replaceState(history.state, "", location.pathname + location.search);
  });

  it("holds back stopping and removing the only sign-in address, with the reason shown, and the password still signs in", async () => {
    const project = await createProject();
    const email = uniqueEmail();
    const { userId } = await createUser(project, { email, password: PASSWORD, primaryEmailVerified: true });
    const page = await mount(project, "<auth-account-settings></auth-account-settings>");
    await page.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    const row = await until(() => emailRow(page, email)?.querySelector("[part=reason]") && emailRow(page, email), 10_000, "the held-back address");

    const stop = button(row, "Stop using for sign-in");
    const remove = button(row, "Remove");
    expect([stop.disabled, remove.disabled]).to.deep.equal([true, true]);
    // The reason is on the page, next to the address, and each button points to it (screen readers read it).
    expect(text(reasonFor(stop)!)).to.equal(ONLY_ADDRESS);
    expect(reasonFor(remove)).to.equal(reasonFor(stop));
    expect(row.contains(reasonFor(stop))).to.equal(true);
    expect(await axe(page.host)).to.deep.equal([]);

    // Clicking anyway opens nothing and changes nothing.
    await realClick(stop);
    await realClick(remove);
    expect(page.host.querySelector("dialog")).to.equal(null);
    expect((await page.app.listContactChannels()).map((c) => [c.value, c.usedForAuth])).to.deep.equal([[email, true]]);

    expect(await signOutAndIn(page, project, email)).to.equal(userId);
  });

  it("frees the address once another one signs in; stopping asks, cancelling changes nothing, and the password signs in with the other", async () => {
    const project = await createProject();
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    const { userId } = await createUser(project, { email: first, password: PASSWORD, primaryEmailVerified: true });
    const page = await mount(project, "<auth-account-settings></auth-account-settings>");
    await page.app.signInWithCredential({ email: first, password: PASSWORD, noRedirect: true });
    await until(() => emailRow(page, first)?.querySelector("[part=reason]"), 10_000, "the held-back address");

    // Another address used for sign-in (the form's box is ticked by default): the first is free.
    fill(page.q<HTMLInputElement>("auth-email-settings input[name=email]"), second);
    page.q<HTMLButtonElement>("auth-email-settings button[type=submit]").click();
    await until(() => emailRow(page, second) && !emailRow(page, first)!.querySelector("[part=reason]"), 10_000, "the first address freed");
    const stop = () => button(emailRow(page, first)!, "Stop using for sign-in");
    expect(stop().disabled).to.equal(false);
    expect(reasonFor(stop())).to.equal(null);

    // Cancel (the button, then Escape): nothing changes.
    await realClick(stop());
    let dialog = await dialogOf(page);
    expect(text(dialog.querySelector("h3")!)).to.equal("Stop using this address for sign-in?");
    expect(text(dialog)).to.include(`You will no longer be able to sign in with ${first}.`);
    expect(await axe(dialog)).to.deep.equal([]);
    await realClick(button(dialog, "Cancel"));
    await until(() => !page.host.querySelector("dialog"));
    await realClick(stop());
    await dialogOf(page);
    await sendKeys({ press: "Escape" });
    await until(() => !page.host.querySelector("dialog"));
    expect((await page.app.listContactChannels()).find((c) => c.value === first)?.usedForAuth).to.equal(true);
    expect(text(emailRow(page, first)!)).to.include("Used for sign-in");

    // Confirmed: the first stops signing in, and the second, now the only one, is held back.
    await realClick(stop());
    await realClick(button(await dialogOf(page), "Stop using for sign-in"));
    await until(() => !text(emailRow(page, first)!).includes("Used for sign-in"), 10_000, "the first address no longer used for sign-in");
    expect((await page.app.listContactChannels()).find((c) => c.value === first)?.usedForAuth).to.equal(false);
    const secondRow = await until(() => emailRow(page, second)?.querySelector("[part=reason]") && emailRow(page, second), 10_000, "the second address held back");
    expect(button(secondRow, "Stop using for sign-in").disabled).to.equal(true);
    expect(text(reasonFor(button(secondRow, "Remove"))!)).to.equal(ONLY_ADDRESS);
    // The first no longer signs in, so removing it is no risk (it still asks).
    expect(button(emailRow(page, first)!, "Remove").disabled).to.equal(false);

    expect(await signOutAndIn(page, project, second)).to.equal(userId);
  });

  it("holds back disconnecting the only linked account until a password is set, and asks before it stops signing in", async () => {
    const project = await createProject({ configOverride: { "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true, allowConnectedAccounts: true } } });
    const email = uniqueEmail();
    // No password, an unverified address: the GitHub account is the only way in.
    const { userId } = await createUser(project, { email });
    const linked = await fetch(`${project.baseUrl}/api/v1/oauth-providers`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-stack-project-id": project.projectId, "x-stack-access-type": "server", "x-stack-secret-server-key": project.secretServerKey },
      body: JSON.stringify({ user_id: userId, provider_config_id: "github", account_id: "octo", email: "octo@example.com", allow_sign_in: true, allow_connected_accounts: true }),
    });
    expect(linked.status).to.equal(201);
    const session = await fetch(`${project.baseUrl}/api/v1/auth/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-stack-project-id": project.projectId, "x-stack-access-type": "server", "x-stack-secret-server-key": project.secretServerKey },
      body: JSON.stringify({ user_id: userId }),
    });
    const tokens = (await session.json()) as { access_token: string; refresh_token: string };
    const page = await mount(project, "<auth-account-settings></auth-account-settings>");
    page.app.session.signIn({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
    (await until(() => [...page.host.querySelectorAll<HTMLButtonElement>("[role=tab]")].find((tab) => tab.textContent === "Security"))).click();

    const row = () => page.q("auth-connected-accounts-settings li");
    const disconnect = () => button(row(), "Disconnect");
    const box = () => row().querySelector<HTMLInputElement>("input[type=checkbox]")!;
    await until(() => row().querySelector("[part=reason]"), 10_000, "the held-back link");
    expect([disconnect().disabled, box().disabled, box().checked]).to.deep.equal([true, true, true]);
    const reason = "GitHub is your only way to sign in. To disconnect it or stop signing in with it, first add another way to sign in.";
    expect(text(reasonFor(disconnect())!)).to.equal(reason);
    expect(text(reasonFor(box())!)).to.equal(reason);
    expect(await axe(page.host)).to.deep.equal([]);
    await realClick(disconnect());
    await realClick(box());
    expect(page.host.querySelector("dialog")).to.equal(null);
    expect(box().checked).to.equal(true);

    // A password (with the address that signs in) is another way in: the link is free.
    fill(page.q<HTMLInputElement>("auth-password-settings input[name=password]"), PASSWORD);
    fill(page.q<HTMLInputElement>("auth-password-settings input[name=password-repeat]"), PASSWORD);
    page.q<HTMLButtonElement>("auth-password-settings button[type=submit]").click();
    await until(() => page.q("auth-password-settings [role=status]").textContent === "Your password has been set.", 10_000, "the password set");
    await until(() => !row().querySelector("[part=reason]") && !disconnect().disabled, 10_000, "the link freed");

    // Unticking "Use to sign in" asks; cancelling leaves it ticked, on the page and on the server.
    await realClick(box());
    const question = await dialogOf(page);
    expect(text(question.querySelector("h3")!)).to.equal("Stop signing in with GitHub?");
    await realClick(button(question, "Cancel"));
    await until(() => !page.host.querySelector("dialog"));
    expect(box().checked).to.equal(true);
    expect((await page.app.listOAuthProviders()).map((l) => l.allowSignIn)).to.deep.equal([true]);

    // Disconnecting asks; cancelled it stays, confirmed it goes.
    await realClick(disconnect());
    await realClick(button(await dialogOf(page), "Cancel"));
    await until(() => !page.host.querySelector("dialog"));
    expect(await page.app.listOAuthProviders()).to.have.length(1);
    await realClick(disconnect());
    await realClick(button(await dialogOf(page), "Disconnect"));
    await until(() => !page.host.querySelector("auth-connected-accounts-settings li"), 10_000, "the link gone");
    expect(await page.app.listOAuthProviders()).to.deep.equal([]);

    expect(await signOutAndIn(page, project, email)).to.equal(userId);
  });

  it("checks again before acting: a way in removed elsewhere holds the button back instead of locking the user out", async () => {
    const project = await createProject();
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    const { userId } = await createUser(project, { email: first, password: PASSWORD, primaryEmailVerified: true });
    const page = await mount(project, "<auth-email-settings></auth-email-settings>");
    await page.app.signInWithCredential({ email: first, password: PASSWORD, noRedirect: true });
    fill(await until(() => page.q<HTMLInputElement>("auth-email-settings input[name=email]")), second);
    page.q<HTMLButtonElement>("auth-email-settings button[type=submit]").click();
    await until(() => emailRow(page, second) && !button(emailRow(page, first)!, "Stop using for sign-in").disabled, 10_000, "the first address free");
    const added = (await page.app.listContactChannels()).find((c) => c.value === second)!;

    // Another tab stops using the second address; this page has not heard of it yet.
    const otherTab = await mount(project, "<div></div>");
    await otherTab.app.signInWithCredential({ email: first, password: PASSWORD, noRedirect: true });
    await otherTab.app.updateContactChannel(added.id, { usedForAuth: false });
    otherTab.host.remove();

    await realClick(button(emailRow(page, first)!, "Stop using for sign-in"));
    await realClick(button(await dialogOf(page), "Stop using for sign-in"));
    await until(() => emailRow(page, first)?.querySelector("[part=reason]"), 10_000, "the reason after the fresh check");
    expect(text(page.q("auth-email-settings [role=alert]"))).to.equal(ONLY_ADDRESS);
    expect(button(emailRow(page, first)!, "Stop using for sign-in").disabled).to.equal(true);
    expect((await page.app.listContactChannels()).find((c) => c.value === first)?.usedForAuth).to.equal(true);

    expect(await signOutAndIn(page, project, first)).to.equal(userId);
  });
});
