import { expect } from "@esm-bundle/chai";
import { sendKeys } from "@web/test-runner-commands";
import { createClientApp } from "@latchkey/core";
import { createProject, createUser, uniqueEmail, waitForMail, type BrowserTestProject } from "./support/harness.js";
import { alerts, fill, mount, unmountAll, until, untilFocused, type Mounted } from "./support/mount.js";
import { axe } from "./support/axe.js";

/** `<auth-profile-settings>`, `<auth-email-settings>` and `<auth-password-settings>` against the real server. */

const PASSWORD = "correct horse battery";

async function signedIn(project: BrowserTestProject, markup: string, email = uniqueEmail()): Promise<Mounted & { email: string; events: CustomEvent[] }> {
  await createUser(project, { email, password: PASSWORD, displayName: "Ada Lovelace", primaryEmailVerified: true });
  const page = await mount(project, markup);
  await page.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
  return { ...page, email };
}

/** Records the account elements' own events (mount() records the sign-in ones). */
function record(page: Mounted, types: string[]): CustomEvent[] {
  const events: CustomEvent[] = [];
  for (const type of types) page.host.addEventListener(type, (event) => events.push(event as CustomEvent));
  return events;
}

/** A picture file drawn on a canvas, as a person's photo would arrive from the file picker. */
async function picture(width: number, height: number, type = "image/png"): Promise<File> {
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext("2d")!;
  context.fillStyle = "#1d4ed8";
  context.fillRect(0, 0, width, height);
  context.fillStyle = "#fbbf24";
  context.fillRect(width / 4, height / 4, width / 2, height / 2);
  const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), type));
  return new File([blob], "me.png", { type });
}

function choose(input: HTMLInputElement, file: File): void {
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event("change", { bubbles: true }));
}

/** The row of the email list that shows `address`. */
function row(page: Mounted, address: string): HTMLLIElement | undefined {
  return [...page.host.querySelectorAll<HTMLLIElement>("auth-email-settings li")].find((li) => li.textContent!.includes(address));
}

function button(root: Element, label: string): HTMLButtonElement {
  const found = [...root.querySelectorAll<HTMLButtonElement>("button")].find((b) => b.textContent!.trim() === label);
  if (!found) throw new Error(`No "${label}" button in ${root.textContent}`);
  return found;
}

function badges(li: Element): string[] {
  return [...li.querySelectorAll(".lk-badge")].map((b) => b.textContent!.trim());
}

describe("<auth-profile-settings>", () => {
  afterEach(unmountAll);

  it("has no axe violations, with and without an avatar", async () => {
    const project = await createProject();
    const page = await signedIn(project, "<auth-profile-settings></auth-profile-settings>");
    await until(() => page.q("auth-profile-settings input[name=display-name]"));
    expect(await axe(page.host)).to.deep.equal([]);
    choose(page.q<HTMLInputElement>("auth-profile-settings input[type=file]"), await picture(40, 40));
    await until(() => page.host.querySelector("img.lk-profile-avatar"));
    expect(await axe(page.host)).to.deep.equal([]);
  });

  it("changes the display name, says so and fires auth-profile-updated", async () => {
    const project = await createProject();
    const page = await signedIn(project, "<auth-profile-settings></auth-profile-settings>");
    const events = record(page, ["auth-profile-updated"]);
    const name = await until(() => page.q<HTMLInputElement>("auth-profile-settings input[name=display-name]"));
    expect(name.value).to.equal("Ada Lovelace");
    expect(name.autocomplete).to.equal("name");
    expect(name.labels?.[0]?.textContent).to.contain("Display name");
    fill(name, "Ada King");
    page.q<HTMLButtonElement>("auth-profile-settings button[type=submit]").click();
    await until(() => page.q("auth-profile-settings [role=status]").textContent === "Your name has been saved.");
    expect((await page.app.getUser())?.displayName).to.equal("Ada King");
    expect(events.map((e) => e.detail)).to.deep.equal([{ displayName: "Ada King", profileImageUrl: null }]);
  });

  it("uploads a picture resized to at most 256×256, shows it from the URL the server keeps it at, and removes it", async () => {
    const project = await createProject();
    const page = await signedIn(project, "<auth-profile-settings></auth-profile-settings>");
    choose(await until(() => page.q<HTMLInputElement>("auth-profile-settings input[type=file]")), await picture(1200, 800));
    const avatar = await until(() => page.host.querySelector<HTMLImageElement>("img.lk-profile-avatar"));
    expect(avatar.alt).to.equal("Your avatar");
    // The element sends a PNG data URL (clients may send nothing else); the server stores the image and
    // answers with the URL it serves it at.
    expect(avatar.src).to.match(/\/api\/v1\/profile-images\/[0-9a-f-]{36}$/);
    expect((await fetch(avatar.src)).headers.get("content-type")).to.equal("image/png");
    await until(() => avatar.complete && avatar.naturalWidth > 0);
    expect([avatar.naturalWidth, avatar.naturalHeight]).to.deep.equal([256, 171]);
    expect((await page.app.getUser())?.profileImageUrl).to.equal(avatar.src);

    // A small picture is not enlarged; a photo (JPEG) stays a JPEG, several times smaller than a PNG.
    choose(page.q<HTMLInputElement>("auth-profile-settings input[type=file]"), await picture(64, 48, "image/jpeg"));
    await until(() => page.q<HTMLImageElement>("img.lk-profile-avatar").naturalWidth === 64);
    expect((await fetch(page.q<HTMLImageElement>("img.lk-profile-avatar").src)).headers.get("content-type")).to.equal("image/jpeg");

    // Removing asks first: cancelled, the picture stays; confirmed, it goes.
    button(page.q("auth-profile-settings"), "Remove avatar").click();
    let question = await until(() => page.host.querySelector<HTMLDialogElement>("auth-profile-settings dialog[open]"));
    expect(question.querySelector("h3")!.textContent).to.equal("Remove your avatar?");
    button(question, "Cancel").click();
    await until(() => !page.host.querySelector("dialog"));
    expect(page.host.querySelector("img.lk-profile-avatar")).to.not.equal(null);
    expect((await page.app.getUser())?.profileImageUrl).to.not.equal(null);
    button(page.q("auth-profile-settings"), "Remove avatar").click();
    question = await until(() => page.host.querySelector<HTMLDialogElement>("auth-profile-settings dialog[open]"));
    button(question, "Remove").click();
    await until(() => !page.host.querySelector("img.lk-profile-avatar"));
    expect(page.q("auth-profile-settings [role=status]").textContent).to.equal("Your avatar has been removed.");
    expect((await page.app.getUser())?.profileImageUrl).to.equal(null);
  });

  it("says when a file is not a picture, and keeps the avatar as it was", async () => {
    const project = await createProject();
    const page = await signedIn(project, "<auth-profile-settings></auth-profile-settings>");
    choose(await until(() => page.q<HTMLInputElement>("auth-profile-settings input[type=file]")), new File(["not a picture"], "notes.png", { type: "image/png" }));
    await until(() => alerts(page.host).length > 0);
    expect(alerts(page.host)).to.deep.equal(["This file cannot be read as a picture. Choose a PNG, JPEG, WebP or GIF image."]);
    expect((await page.app.getUser())?.profileImageUrl).to.equal(null);
  });
});

describe("<auth-email-settings>", () => {
  afterEach(unmountAll);

  it("adds a second email, verifies it from the mail, makes it primary and removes the first", async () => {
    const project = await createProject({ email: true });
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    let page = await signedIn(project, "<auth-email-settings></auth-email-settings>", first);
    const firstRow = await until(() => row(page, first));
    expect(badges(firstRow)).to.deep.equal(["Primary", "Verified", "Used for sign-in"]);
    expect(await axe(page.host)).to.deep.equal([]);

    // Add, used for sign-in (the box is ticked by default).
    const input = page.q<HTMLInputElement>("auth-email-settings input[name=email]");
    expect(input.autocomplete).to.equal("email");
    expect(page.q<HTMLInputElement>("auth-email-settings input[name=used-for-auth]").checked).to.equal(true);
    fill(input, second);
    page.q<HTMLButtonElement>("auth-email-settings button[type=submit]").click();
    const secondRow = await until(() => row(page, second));
    expect(badges(secondRow)).to.deep.equal(["Not verified", "Used for sign-in"]);
    expect(input.value).to.equal("");
    expect(await axe(page.host)).to.deep.equal([]);

    // Verify through the link the mail carries, opened on the email-verification page.
    button(secondRow, "Send verification email").click();
    // A real send through the mail server, which took 12 s on a loaded 2-core machine.
    await until(() => page.q("auth-email-settings p[role=status]").textContent === `A verification email has been sent to ${second}.`, 30_000);
    const link = (await waitForMail(second)).links.find((l) => l.includes("email-verification"))!;
    const verifier = await mount(project, `<auth-email-verification code="${new URL(link).searchParams.get("code")}"></auth-email-verification>`);
    await until(() => verifier.host.querySelector("auth-email-verification [role=status]:not(.lk-note)"));

    // Coming back to the settings page, the address shows as verified; make it the primary one.
    unmountAll();
    page = await mount(project, "<auth-email-settings></auth-email-settings>") as typeof page;
    await page.app.signInWithCredential({ email: first, password: PASSWORD, noRedirect: true });
    const verified = await until(() => [row(page, second)].find((li) => li && badges(li).includes("Verified")));
    expect(badges(verified)).to.deep.equal(["Verified", "Used for sign-in"]);
    button(verified, "Make primary").click();
    await until(() => badges(row(page, second)!).includes("Primary"));
    expect(badges(row(page, first)!)).to.deep.equal(["Verified", "Used for sign-in"]);
    expect((await page.app.getUser())?.primaryEmail).to.equal(second);
    // The "Make primary" button is gone; keyboard focus stays on that address's row.
    await until(() => document.activeElement?.getAttribute("aria-describedby") === row(page, second)!.querySelector(".lk-grow")!.id);

    // Remove the first: a dialog asks; Escape keeps it, confirming removes it.
    const remove = button(row(page, first)!, "Remove");
    remove.focus();
    remove.click();
    const dialog = await until(() => page.host.querySelector<HTMLDialogElement>("auth-email-settings dialog[open]"));
    expect(dialog.textContent).to.contain(`${first} will no longer belong to your account.`);
    expect(await axe(dialog)).to.deep.equal([]);
    await sendKeys({ press: "Escape" });
    await until(() => !page.host.querySelector("dialog"));
    expect(row(page, first)).to.not.equal(undefined);
    await until(() => document.activeElement === button(row(page, first)!, "Remove"));

    button(row(page, first)!, "Remove").click();
    button(await until(() => page.host.querySelector<HTMLDialogElement>("dialog[open]")), "Remove").click();
    await until(() => !row(page, first) || alerts(page.host).length > 0);
    expect(alerts(page.host)).to.deep.equal([]);
    expect((await page.app.listContactChannels()).map((c) => c.value)).to.deep.equal([second]);
  });

  it("stops and starts using an address for sign-in", async () => {
    const project = await createProject();
    const page = await signedIn(project, "<auth-email-settings></auth-email-settings>");
    await page.app.addContactChannel({ value: uniqueEmail("extra"), usedForAuth: false });
    unmountAll();
    const again = await mount(project, "<auth-email-settings></auth-email-settings>");
    await again.app.signInWithCredential({ email: page.email, password: PASSWORD, noRedirect: true });
    const extra = await until(() => [...again.host.querySelectorAll("li")].find((li) => li.textContent!.includes("extra-")));
    expect(badges(extra)).to.deep.equal(["Not verified"]);
    button(extra, "Use for sign-in").click();
    await until(() => badges([...again.host.querySelectorAll("li")].find((li) => li.textContent!.includes("extra-"))!).includes("Used for sign-in"));
    // It is not the only address that signs in, so it may stop, after confirming.
    button([...again.host.querySelectorAll("li")].find((li) => li.textContent!.includes("extra-"))!, "Stop using for sign-in").click();
    button(await until(() => again.host.querySelector<HTMLDialogElement>("dialog[open]")), "Stop using for sign-in").click();
    await until(() => !badges([...again.host.querySelectorAll("li")].find((li) => li.textContent!.includes("extra-"))!).includes("Used for sign-in"));
  });

  it("shows the server's refusal next to the address field", async () => {
    const project = await createProject();
    const page = await signedIn(project, "<auth-email-settings></auth-email-settings>");
    fill(await until(() => page.q<HTMLInputElement>("auth-email-settings input[name=email]")), "not an address");
    // The browser's own check would stop a person; the server's answer is what this test is about.
    page.q<HTMLFormElement>("auth-email-settings form").noValidate = true;
    page.q<HTMLButtonElement>("auth-email-settings button[type=submit]").click();
    await until(() => alerts(page.host).length > 0);
    expect(alerts(page.host)).to.deep.equal(["Enter a valid email address."]);
    expect(page.q("auth-email-settings input[name=email]").getAttribute("aria-invalid")).to.equal("true");
  });

  it("refuses another account's sign-in address without saying that the account exists", async () => {
    const project = await createProject();
    const someoneElse = uniqueEmail("other");
    await createUser(project, { email: someoneElse, password: PASSWORD });
    const page = await signedIn(project, "<auth-email-settings></auth-email-settings>");
    fill(await until(() => page.q<HTMLInputElement>("auth-email-settings input[name=email]")), someoneElse);
    page.q<HTMLButtonElement>("auth-email-settings button[type=submit]").click();
    await until(() => alerts(page.host).length > 0);
    expect(alerts(page.host)).to.deep.equal(["This email address cannot be used for signing in here. Try another address or another way to sign in."]);
    expect(alerts(page.host)[0]).to.not.match(/account/i);
  });
});

describe("<auth-password-settings>", () => {
  afterEach(unmountAll);

  it("checks the new password first: too short, too long, not repeated the same", async () => {
    const project = await createProject();
    const page = await signedIn(project, "<auth-password-settings></auth-password-settings>");
    await until(() => page.q("auth-password-settings input[name=current-password]"));
    expect(await axe(page.host)).to.deep.equal([]);
    const attempt = async (next: string, repeat: string) => {
      fill(page.q<HTMLInputElement>("input[name=current-password]"), PASSWORD);
      fill(page.q<HTMLInputElement>("input[name=password]"), next);
      fill(page.q<HTMLInputElement>("input[name=password-repeat]"), repeat);
      page.q<HTMLButtonElement>("auth-password-settings button[type=submit]").click();
      await until(() => alerts(page.host).length > 0);
      return alerts(page.host);
    };
    expect(await attempt("short", "short")).to.deep.equal(["The password must be at least 8 characters long."]);
    expect(await attempt("x".repeat(71), "x".repeat(71))).to.deep.equal(["The password must be at most 70 characters long."]);
    expect(await attempt("a new password", "a new passwort")).to.deep.equal(["Passwords do not match."]);
    // Focus is on the field to fix.
    await untilFocused(page.q("input[name=password-repeat]"));
    expect(await axe(page.host)).to.deep.equal([]);
  });

  it("says when the current password is wrong", async () => {
    const project = await createProject();
    const page = await signedIn(project, "<auth-password-settings></auth-password-settings>");
    fill(await until(() => page.q<HTMLInputElement>("input[name=current-password]")), "not my password");
    fill(page.q<HTMLInputElement>("input[name=password]"), "a new password");
    fill(page.q<HTMLInputElement>("input[name=password-repeat]"), "a new password");
    page.q<HTMLButtonElement>("auth-password-settings button[type=submit]").click();
    await until(() => alerts(page.host).length > 0);
    expect(alerts(page.host)).to.deep.equal(["The current password is wrong."]);
  });

  it("changes the password with the keyboard: other sessions end, the new password signs in", async () => {
    const project = await createProject();
    const page = await signedIn(project, "<auth-password-settings></auth-password-settings><auth-session-settings></auth-session-settings>");
    const events = record(page, ["auth-password-changed"]);
    // Another browser signed in to the same account.
    const other = createClientApp({ projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: project.baseUrl, tokenStore: "memory", navigate: () => {} });
    await other.signInWithCredential({ email: page.email, password: PASSWORD, noRedirect: true });
    expect(await page.app.listSessions()).to.have.length(2);

    // What a password manager needs: the account's username beside the new-password fields.
    const username = await until(() => page.q<HTMLInputElement>("auth-password-settings input[autocomplete=username]"));
    expect(username.value).to.equal(page.email);
    expect(page.q<HTMLInputElement>("input[name=current-password]").autocomplete).to.equal("current-password");
    expect(page.q<HTMLInputElement>("input[name=password]").autocomplete).to.equal("new-password");
    expect(page.q<HTMLInputElement>("input[name=password-repeat]").autocomplete).to.equal("new-password");

    page.q<HTMLInputElement>("input[name=current-password]").focus();
    await sendKeys({ type: PASSWORD });
    await sendKeys({ press: "Tab" });
    await sendKeys({ type: "a brand new password" });
    await sendKeys({ press: "Tab" });
    await sendKeys({ type: "a brand new password" });
    await sendKeys({ press: "Enter" });
    await until(() => page.q("auth-password-settings p[role=status]").textContent === "Your password has been changed.");
    expect(events.map((e) => e.detail)).to.deep.equal([{ wasSet: false }]);
    expect(page.q<HTMLInputElement>("input[name=password]").value).to.equal("");

    // Only this browser's session is left.
    const sessions = await page.app.listSessions();
    expect(sessions.map((s) => s.isCurrentSession)).to.deep.equal([true]);
    const fresh = createClientApp({ projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: project.baseUrl, tokenStore: "memory", navigate: () => {} });
    await fresh.signInWithCredential({ email: page.email, password: "a brand new password", noRedirect: true });
    expect((await fresh.getUser())?.primaryEmail).to.equal(page.email);
  });

  it("sets a password when the account has none", async () => {
    const project = await createProject({ email: true, configOverride: { "auth.otp.allowSignIn": true } });
    const email = uniqueEmail();
    await createUser(project, { email, primaryEmailVerified: true });
    const signer = await mount(project, "<auth-password-settings></auth-password-settings>");
    const events = record(signer, ["auth-password-changed"]);
    // An account without a password signs in with a one-time code from its mail.
    const { nonce } = await signer.app.sendMagicLinkEmail(email);
    const { code } = await waitForMail(email);
    await signer.app.signInWithCode(`${code}${nonce}`, { noRedirect: true });
    await until(() => signer.q("auth-password-settings input[name=password]"));
    expect(signer.host.querySelector("input[name=current-password]")).to.equal(null);
    expect(signer.q("auth-password-settings .lk-note").textContent).to.contain("Your account has no password yet");
    fill(signer.q<HTMLInputElement>("input[name=password]"), "my first password");
    fill(signer.q<HTMLInputElement>("input[name=password-repeat]"), "my first password");
    button(signer.q("auth-password-settings"), "Set password").click();
    await until(() => events.length === 1);
    expect(events[0]!.detail).to.deep.equal({ wasSet: true });
    await until(() => signer.host.querySelector("input[name=current-password]"));
  });
});
