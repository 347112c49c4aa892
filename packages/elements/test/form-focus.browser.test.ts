import { expect } from "@esm-bundle/chai";
import { sendMouse } from "@web/test-runner-commands";
import { createProject, createUser, uniqueEmail } from "./support/harness.js";
import { fill, mount, unmountAll, until, untilFocused } from "./support/mount.js";

/** Issue 16 §2: where the focus goes in the forms — after an error, while busy, and on load. */

const PASSWORD = "correct horse battery";

/** Clicks like a person with a mouse (which also focuses the button), in the middle of `element`. */
async function mouseClick(element: Element): Promise<void> {
  const box = element.getBoundingClientRect();
  await sendMouse({ type: "click", position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
}

/** The requests the page makes to `path` from now on, as the browser's resource timing records them. */
function watchRequests(path: string): () => number {
  const seen: string[] = [];
  const observer = new PerformanceObserver((list) => seen.push(...list.getEntries().map((entry) => entry.name)));
  observer.observe({ type: "resource" });
  return () => seen.filter((url) => new URL(url).pathname.endsWith(path)).length;
}

describe("focus in the forms", () => {
  afterEach(unmountAll);

  it("moves to the field to fix when the server refuses it (sign-up: the address has an account)", async () => {
    const project = await createProject();
    const address = uniqueEmail();
    await createUser(project, { email: address, password: PASSWORD });
    const { q } = await mount(project, "<auth-sign-up></auth-sign-up>");
    const email = await until(() => q<HTMLInputElement>("input[name=email]"));
    fill(email, address);
    fill(q<HTMLInputElement>("input[name=password]"), PASSWORD);
    fill(q<HTMLInputElement>("input[name=password-repeat]"), PASSWORD);
    const submit = q<HTMLButtonElement>("button[type=submit]");
    submit.focus();
    submit.click();
    await until(() => email.getAttribute("aria-invalid") === "true");
    await untilFocused(email);
  });

  it("moves to the first invalid field when the form's own check fails (sign-up: the repetition)", async () => {
    const project = await createProject();
    const { q } = await mount(project, "<auth-sign-up></auth-sign-up>");
    fill(await until(() => q<HTMLInputElement>("input[name=email]")), uniqueEmail());
    fill(q<HTMLInputElement>("input[name=password]"), PASSWORD);
    fill(q<HTMLInputElement>("input[name=password-repeat]"), "something else");
    q<HTMLButtonElement>("button[type=submit]").click();
    await untilFocused(q("input[name=password-repeat]"));
  });

  it("moves to the error summary when the error concerns the whole form (sign-in: wrong email or password)", async () => {
    const project = await createProject();
    const { q, host } = await mount(project, "<auth-sign-in></auth-sign-in>");
    fill(await until(() => q<HTMLInputElement>("input[name=email]")), uniqueEmail());
    fill(q<HTMLInputElement>("input[name=password]"), PASSWORD);
    await mouseClick(q("button[type=submit]"));
    const alert = await until(() => host.querySelector<HTMLElement>("[role=alert]"));
    expect(alert.textContent).to.equal("Wrong email or password.");
    await untilFocused(alert);
  });

  it("keeps the focus on the busy submit button, and a double click signs in once", async () => {
    const project = await createProject();
    const address = uniqueEmail();
    await createUser(project, { email: address, password: PASSWORD });
    const { q, app, events } = await mount(project, "<auth-sign-in no-redirect></auth-sign-in>");
    fill(await until(() => q<HTMLInputElement>("input[name=email]")), address);
    fill(q<HTMLInputElement>("input[name=password]"), PASSWORD);
    const button = q<HTMLButtonElement>("button[type=submit]");
    // The button as it is the moment it turns busy: where the focus is (a disabled button would drop it).
    let whenBusy: { focus: Element | null; disabled: boolean; ariaDisabled: string | null } | undefined;
    const busy = new MutationObserver(() => {
      if (button.getAttribute("aria-busy") === "true") whenBusy ??= { focus: document.activeElement, disabled: button.disabled, ariaDisabled: button.getAttribute("aria-disabled") };
    });
    busy.observe(button, { attributes: true });
    const requests = watchRequests("/api/v1/auth/password/sign-in");

    await mouseClick(button);
    // The second click of a double click, on the busy button (a click on a detached one would do nothing).
    button.click();
    await until(() => whenBusy, 5_000, "the busy state");
    busy.disconnect();
    expect(whenBusy).to.deep.equal({ focus: button, disabled: false, ariaDisabled: "true" });

    await until(() => events.length > 0);
    // Signed in: the form gives way to who is signed in, so no later click can send the form again.
    await until(() => !button.isConnected);
    expect(events.map((e) => e.type)).to.deep.equal(["auth-signed-in"]);
    expect(await app.listSessions()).to.have.length(1);
    await until(() => requests() === 1, 2_000, "the sign-in request's timing entry");
    expect(requests()).to.equal(1);
  });

  it("focuses the first field on load with the autofocus attribute, once the form shows", async () => {
    const project = await createProject();
    for (const tag of ["auth-sign-in", "auth-sign-up", "auth-forgot-password"]) {
      const { q } = await mount(project, `<${tag} autofocus></${tag}>`);
      await untilFocused(await until(() => q(`${tag} input[name=email]`)));
      unmountAll();
    }
  });

  it("leaves the focus where it is without the attribute", async () => {
    const project = await createProject();
    const outside = document.createElement("button");
    outside.textContent = "Somewhere else";
    document.body.append(outside);
    try {
      outside.focus();
      const { q } = await mount(project, "<auth-sign-in></auth-sign-in>");
      await until(() => q("input[name=email]"));
      expect(document.activeElement).to.equal(outside);
    } finally {
      outside.remove();
    }
  });
});
