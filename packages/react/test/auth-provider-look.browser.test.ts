import { expect } from "@esm-bundle/chai";
import { setLocale } from "@latchkey/elements";
import { createElement as h } from "react";
import { AuthProvider, AuthSignIn } from "../src/index.js";
import { createProject, type BrowserTestProject } from "../../elements/test/support/harness.js";
import { render, textOf, waitFor, type Rendered } from "./support/render.js";

/** `AuthProvider`'s `locale` and `appearance`: what the sign-in form inside looks like in Chromium. */
describe("AuthProvider look", () => {
  let project: BrowserTestProject;
  let rendered: Rendered | undefined;

  before(async () => {
    project = await createProject();
  });

  afterEach(async () => {
    rendered?.unmount();
    rendered = undefined;
    // The language is the page's, shared by every element: the next test starts in English again.
    await setLocale("en");
  });

  it("renders the widgets in the provider's locale, with its primary colour", async () => {
    const options = { projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: project.baseUrl, tokenStore: "memory" as const };
    rendered = render(
      h(AuthProvider, { ...options, locale: "de", appearance: { variables: { "--auth-color-primary": "#7c3aed" } } }, h(AuthSignIn, { noRedirect: true })),
    );
    const { container } = rendered;
    const submit = await waitFor("the German submit button", () =>
      [...container.querySelectorAll<HTMLButtonElement>("auth-sign-in button[type=submit]")].find((button) => textOf(button) === "Anmelden"),
    );
    expect(textOf(container.querySelector("auth-sign-in h2"))).to.equal("Anmelden");
    const password = container.querySelector<HTMLInputElement>("auth-sign-in input[name=password]")!;
    expect(textOf(password.labels![0]!)).to.equal("Passwort");
    expect(getComputedStyle(submit).backgroundColor).to.equal("rgb(124, 58, 237)");
  });

  it("keeps the elements' own colour and English without them", async () => {
    rendered = render(h(AuthProvider, { projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: project.baseUrl, tokenStore: "memory" }, h(AuthSignIn, { noRedirect: true })));
    const submit = await waitFor("the submit button", () => rendered!.container.querySelector<HTMLButtonElement>("auth-sign-in button[type=submit]"));
    expect(textOf(submit)).to.equal("Sign in");
    expect(getComputedStyle(submit).backgroundColor).to.not.equal("rgb(124, 58, 237)");
  });
});
