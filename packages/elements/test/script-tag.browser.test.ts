import { expect } from "@esm-bundle/chai";
import { createProject, createUser, uniqueEmail } from "./support/harness.js";
import { fill, until } from "./support/dom.js";

/**
 * The drop-in bundle as a page uses it: one classic <script> from the Latchkey server (`/static/v1/latchkey.iife.js`,
 * serving dist/latchkey.iife.js, built by `npm run build:elements`, which the vitest run does before the browser
 * tests), `Latchkey.init`, markup.
 * This file imports nothing of the elements' source, so only the bundle defines them here.
 */
declare global {
  interface Window {
    Latchkey?: { init(options: Record<string, unknown>): { getUser(): Promise<{ id: string } | null> } };
  }
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`${src} did not load: run npm run build:elements first`));
    document.head.append(script);
  });
}

describe("the script-tag bundle", () => {
  it("defines every element and Latchkey.init, and signs a person in", async () => {
    // A plain page has no `process` (the runner's page defines one for the source modules of other tests).
    delete (window as { process?: unknown }).process;
    // Elements placed before the script loads upgrade when it does.
    document.body.innerHTML = "<auth-sign-in no-redirect></auth-sign-in>";
    const project = await createProject();
    // As the README's snippet has it: from the Latchkey server's stable path, another origin than this page's.
    expect(new URL(project.baseUrl).origin).to.not.equal(location.origin);
    await loadScript(`${project.baseUrl}/static/v1/latchkey.iife.js`);
    for (const name of ["auth-app", "auth-sign-in", "auth-sign-up", "auth-forgot-password", "auth-password-reset", "auth-email-verification", "auth-magic-link-callback", "auth-user-button", "auth-handler"]) {
      expect(customElements.get(name), name).to.be.a("function");
    }

    const address = uniqueEmail();
    const { userId } = await createUser(project, { email: address, password: "correct horse battery" });
    const app = window.Latchkey!.init({ projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: project.baseUrl, tokenStore: "memory" });

    const signedIn = new Promise<CustomEvent>((resolve) => document.addEventListener("auth-signed-in", (e) => resolve(e as CustomEvent), { once: true }));
    fill(await until(() => document.querySelector<HTMLInputElement>("auth-sign-in input[name=email]"), 10_000, `the form in ${document.body.innerHTML}`), address);
    fill(document.querySelector<HTMLInputElement>("auth-sign-in input[name=password]")!, "correct horse battery");
    document.querySelector<HTMLButtonElement>("auth-sign-in button[type=submit]")!.click();
    expect((await signedIn).detail.userId).to.equal(userId);
    expect((await app.getUser())?.id).to.equal(userId);
  });

  it("has the passkey library next to it, as a module that pages on another origin can load on first use", async () => {
    const project = await createProject();
    const library = (await import(/* @vite-ignore */ `${project.baseUrl}/static/v1/latchkey-webauthn.js`)) as Record<string, unknown>;
    expect(Object.keys(library).sort()).to.deep.equal(["WebAuthnError", "startAuthentication", "startRegistration"]);
    expect(library.startAuthentication).to.be.a("function");
  });
});
