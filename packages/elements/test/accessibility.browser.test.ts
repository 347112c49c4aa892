import { expect } from "@esm-bundle/chai";
import { createProject, createUser, uniqueEmail, waitForMail } from "./support/harness.js";
import { fill, mount, unmountAll, until } from "./support/mount.js";
import { axe } from "./support/axe.js";

/**
 * axe-core (WCAG 2.0/2.1/2.2 A and AA rules) over each element in its states, in light and dark themes:
 * zero violations. The stories get the same check in the Storybook suite.
 */

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("accessibility (axe)", () => {
  afterEach(unmountAll);

  for (const theme of ["light", "dark"]) {
    it(`finds no violations in the forms, their errors and the user menu (${theme})`, async () => {
      const project = await createProject({ configOverride: { "auth.otp.allowSignIn": true, "auth.oauth.providers.github": { type: "github", isShared: true, allowSignIn: true } } });
      const address = uniqueEmail();
      await createUser(project, { email: address, password: "correct horse battery", displayName: "Ada" });
      const page = await mount(project, "<auth-sign-in></auth-sign-in><auth-sign-up></auth-sign-up><auth-forgot-password></auth-forgot-password><auth-user-button show-name></auth-user-button>");
      page.host.setAttribute("theme", theme);
      await until(() => page.q("auth-sign-in input[name=password]") && page.q("auth-sign-up input[name=password]"));
      expect(await axe(page.host)).to.deep.equal([]);

      // With errors shown.
      fill(page.q<HTMLInputElement>("auth-sign-in input[name=email]"), address);
      fill(page.q<HTMLInputElement>("auth-sign-in input[name=password]"), "not the password");
      page.q<HTMLButtonElement>("auth-sign-in button[type=submit]").click();
      fill(page.q<HTMLInputElement>("auth-sign-up input[name=email]"), address);
      fill(page.q<HTMLInputElement>("auth-sign-up input[name=password]"), "correct horse battery");
      fill(page.q<HTMLInputElement>("auth-sign-up input[name=password-repeat]"), "correct horse battery!");
      page.q<HTMLButtonElement>("auth-sign-up button[type=submit]").click();
      await until(() => page.host.querySelectorAll("[role=alert]").length >= 2);
      await settle();
      expect(await axe(page.host)).to.deep.equal([]);

      // Signed in, with the user menu open.
      await page.app.signInWithCredential({ email: address, password: "correct horse battery", noRedirect: true });
      const button = await until(() => page.q<HTMLButtonElement>("auth-user-button button[aria-haspopup=menu]"));
      button.click();
      await until(() => !page.q<HTMLElement>("[role=menu]").hidden);
      expect(await axe(page.host)).to.deep.equal([]);
    });
  }

  // Issue 16 §2: a brand colour must not break contrast: text on it and links in it adapt to its luminance.
  for (const theme of ["light", "dark"]) {
    for (const [name, brand, rgb] of [["indigo", "#4f46e5", "rgb(79, 70, 229)"], ["rose", "#e11d48", "rgb(225, 29, 72)"], ["amber", "#f59e0b", "rgb(245, 158, 11)"]]) {
      it(`keeps WCAG AA contrast with an ${name} brand colour (${theme})`, async () => {
        const project = await createProject({ configOverride: { "auth.otp.allowSignIn": true } });
        const page = await mount(project, "<auth-sign-in></auth-sign-in><auth-sign-up></auth-sign-up>");
        page.host.setAttribute("theme", theme);
        page.host.style.setProperty("--auth-color-primary", brand!);
        await until(() => page.q("auth-sign-in input[name=password]") && page.q("auth-sign-up input[name=password]"));
        expect(await axe(page.host)).to.deep.equal([]);
        // The submit button really is in the brand colour (the check is not passing on a fallback).
        expect(getComputedStyle(page.q("auth-sign-in button[type=submit]")).backgroundColor).to.equal(rgb);
      });
    }
  }

  for (const theme of ["light", "dark"]) {
    it(`finds no violations on the link pages and the handler's error page (${theme})`, async () => {
      const project = await createProject({ email: true });
      const address = uniqueEmail();
      await createUser(project, { email: address, password: "correct horse battery" });
      const sender = await mount(project, "<div></div>");
      await sender.app.sendForgotPasswordEmail(address);
      const link = (await waitForMail(address)).links.find((l) => l.includes("password-reset"))!;
      const code = new URL(link).searchParams.get("code");
      const page = await mount(
        project,
        `<auth-password-reset code="${code}"></auth-password-reset><auth-password-reset code="unknown"></auth-password-reset>` +
          `<auth-email-verification code="unknown"></auth-email-verification><auth-magic-link-callback code="unknown"></auth-magic-link-callback>`,
      );
      page.host.setAttribute("theme", theme);
      await until(() => page.host.querySelector("auth-password-reset input[name=password]") && page.host.querySelectorAll("[role=alert]").length >= 3);
      await settle();
      expect(await axe(page.host)).to.deep.equal([]);

      const original = location.pathname + location.search;
      history.replaceState(null, "", "/handler/error?errorCode=SOME_ERROR&message=It%20broke.");
      try {
        const handler = await mount(project, "<auth-handler></auth-handler>");
        handler.host.setAttribute("theme", theme);
        await until(() => handler.host.querySelector("h2"));
        expect(await axe(handler.host)).to.deep.equal([]);
      } finally {
        history.replaceState(null, "", original);
      }
    });
  }

  it("switches to the dark palette by attribute", async () => {
    const project = await createProject();
    const light = await mount(project, "<auth-sign-in theme=light></auth-sign-in>");
    const dark = await mount(project, "<auth-sign-in theme=dark></auth-sign-in>");
    await until(() => light.q(".lk-card") && dark.q(".lk-card"));
    const background = (m: typeof light) => getComputedStyle(m.q(".lk-card")).backgroundColor;
    expect(background(light)).to.equal("rgb(255, 255, 255)");
    expect(background(dark)).to.equal("rgb(17, 24, 39)");
  });

  it("takes the --auth-* custom properties", async () => {
    const project = await createProject();
    const page = await mount(project, "<auth-sign-in theme=light style='--auth-color-primary: rgb(10, 120, 40); --auth-radius: 0px'></auth-sign-in>");
    const submit = await until(() => page.q<HTMLButtonElement>("button[type=submit]"));
    expect(getComputedStyle(submit).backgroundColor).to.equal("rgb(10, 120, 40)");
    expect(getComputedStyle(submit).borderTopLeftRadius).to.equal("0px");
  });
});
