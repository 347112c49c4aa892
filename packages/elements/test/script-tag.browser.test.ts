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
    Latchkey?: {
      init(options: Record<string, unknown>): {
        getUser(): Promise<{ id: string } | null>;
        signInWithCredential(options: { email: string; password: string; noRedirect: boolean }): Promise<unknown>;
      };
      setLocale(tag: string): Promise<void>;
      defineAccountElements(): Promise<void>;
    };
  }
}

/** The URLs this page has downloaded so far. */
function fetched(): string[] {
  return performance.getEntriesByType("resource").map((entry) => entry.name);
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

    // A page with only <auth-sign-in> downloads neither the account elements nor the QR-code library.
    expect(customElements.get("auth-account-settings")).to.equal(undefined);
    expect(fetched().filter((url) => /latchkey-(account|qr)\.js$/.test(url))).to.deep.equal([]);
  });

  it("loads the account elements from the server when one is placed on the page, in the page's language, and the QR code when two-factor setup starts", async () => {
    const project = await createProject();
    const email = uniqueEmail();
    await createUser(project, { email, password: "correct horse battery" });
    const app = window.Latchkey!.init({ projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: project.baseUrl, tokenStore: "memory" });
    await app.signInWithCredential({ email, password: "correct horse battery", noRedirect: true });
    await window.Latchkey!.setLocale("de");

    document.body.innerHTML = "<main><auth-account-settings></auth-account-settings></main>";
    const heading = await until(() => document.querySelector("auth-account-settings h2"), 15_000, () => `the account settings in ${document.body.innerHTML}`);
    expect(heading.textContent).to.equal("Kontoeinstellungen");
    expect(fetched()).to.include(`${project.baseUrl}/static/v1/latchkey-account.js`);
    // Every element of the package is defined now, the account ones by latchkey-account.js.
    const manifest = (await (await fetch("/packages/elements/custom-elements.json")).json()) as { modules: { declarations?: { tagName?: string }[] }[] };
    const tags = manifest.modules.flatMap((m) => m.declarations ?? []).flatMap((d) => (d.tagName ? [d.tagName] : []));
    expect(tags).to.include.members(["auth-account-settings", "auth-mfa-settings", "auth-team-settings", "auth-team-invitation", "auth-sign-in"]);
    expect(tags.filter((tag) => !customElements.get(tag))).to.deep.equal([]);

    document.body.innerHTML = "<auth-mfa-settings></auth-mfa-settings>";
    const turnOn = await until(() => [...document.querySelectorAll("auth-mfa-settings button")].find((b) => b.textContent === "Zwei-Faktor-Authentifizierung aktivieren"), 10_000, () => document.body.innerHTML);
    (turnOn as HTMLButtonElement).click();
    const qr = await until(() => document.querySelector("auth-mfa-settings [part=qr]"), 10_000, () => `the QR code in ${document.body.innerHTML}`);
    expect(qr.querySelector("svg"), "the QR code's drawing").to.exist;
    expect(qr.getAttribute("aria-label")).to.equal("QR-Code für Ihre Authenticator-App");
    expect(fetched()).to.include(`${project.baseUrl}/static/v1/latchkey-qr.js`);
  });

  it("defines the account elements for a shadow root of the page's own, which it cannot watch, on defineAccountElements()", async () => {
    await window.Latchkey!.setLocale("en");
    document.body.innerHTML = "<div></div>";
    const shadow = document.body.firstElementChild!.attachShadow({ mode: "open" });
    shadow.innerHTML = "<auth-profile-settings></auth-profile-settings>";
    await window.Latchkey!.defineAccountElements();
    const profile = shadow.querySelector("auth-profile-settings")!;
    expect(profile).to.be.an.instanceof(customElements.get("auth-profile-settings")!);
    // The signed-in person of the test before (the page's default app): their name field, in the shadow root.
    await until(() => profile.querySelector("input[name=display-name]"), 10_000, () => `the name field in ${profile.innerHTML}`);
  });

  it("has the passkey library next to it, as a module that pages on another origin can load on first use", async () => {
    const project = await createProject();
    const library = (await import(/* @vite-ignore */ `${project.baseUrl}/static/v1/latchkey-webauthn.js`)) as Record<string, unknown>;
    expect(Object.keys(library).sort()).to.deep.equal(["WebAuthnError", "startAuthentication", "startRegistration"]);
    expect(library.startAuthentication).to.be.a("function");
  });

  it("links the sign-in form to the server's hosted handler pages with <auth-app hosted-pages>, as init({ hostedPages: true }) does, and to the app's own routes without it", async () => {
    await window.Latchkey!.setLocale("en");
    const project = await createProject({ configOverride: { "auth.allowSignUp": true } });
    const attributes = `project-id="${project.projectId}" publishable-client-key="${project.publishableClientKey}" base-url="${project.baseUrl}"`;
    document.body.innerHTML = `
      <auth-app id="hosted" ${attributes} hosted-pages><auth-sign-in></auth-sign-in></auth-app>
      <auth-app id="own" ${attributes}><auth-sign-in></auth-sign-in></auth-app>`;
    /** The sign-in form's "Sign up" and "Forgot password?" links, text → where they lead. */
    const links = (selector: string) =>
      until(
        () => {
          const found = [...document.querySelectorAll<HTMLAnchorElement>(`${selector} a[part=link]`)];
          return found.length === 2 ? Object.fromEntries(found.map((a) => [a.textContent, a.href])) : undefined;
        },
        10_000,
        () => `the links of ${selector} in ${document.body.innerHTML}`,
      );

    const hosted = `${project.baseUrl}/projects/${project.projectId}/handler`;
    expect(await links("#hosted auth-sign-in")).to.deep.equal({ "Forgot password?": `${hosted}/forgot-password`, "Sign up": `${hosted}/sign-up` });
    expect(await links("#own auth-sign-in")).to.deep.equal({ "Forgot password?": `${location.origin}/handler/forgot-password`, "Sign up": `${location.origin}/handler/sign-up` });
    // The page's default app made by init with hostedPages: the same links as the attribute's.
    window.Latchkey!.init({ projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: project.baseUrl, tokenStore: "memory", hostedPages: true });
    document.body.insertAdjacentHTML("beforeend", `<auth-sign-in id="default"></auth-sign-in>`);
    expect(await links("#default")).to.deep.equal(await links("#hosted auth-sign-in"));

    // Taking the attribute away gives the app's own routes back.
    document.getElementById("hosted")!.removeAttribute("hosted-pages");
    await until(() => document.querySelector<HTMLAnchorElement>("#hosted a[part=link]")?.href === `${location.origin}/handler/forgot-password`, 10_000, () => document.body.innerHTML);
  });
});
