import { expect } from "@esm-bundle/chai";
import { createProject } from "./support/harness.js";
import { until } from "./support/dom.js";

/**
 * The sign-in bundle (dist/latchkey-sign-in.iife.js, from the Latchkey server's stable path) as a page uses it.
 * It leaves the hosted handler pages' code out to stay within its budget (bundle-size.test.ts): asking for them
 * says which bundle has them. Like script-tag.browser.test.ts, this file imports nothing of the elements' source.
 */
const latchkey = () => (window as unknown as { Latchkey: { init(options: Record<string, unknown>): unknown } }).Latchkey;

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`${src} did not load: run npm run build:elements first`));
    document.head.append(script);
  });
}

describe("the sign-in bundle", () => {
  it("says hosted pages need the full bundle, for <auth-app hosted-pages> as for init({ hostedPages: true }), and links to the app's own routes without them", async () => {
    delete (window as { process?: unknown }).process;
    const project = await createProject({ configOverride: { "auth.allowSignUp": true } });
    await loadScript(`${project.baseUrl}/static/v1/latchkey-sign-in.iife.js`);
    expect(customElements.get("auth-sign-up"), "only the sign-in bundle is on this page").to.equal(undefined);
    const options = { projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: project.baseUrl };
    expect(() => latchkey().init({ ...options, hostedPages: true })).to.throw("hostedPages needs the full bundle, latchkey.iife.js");

    const host = document.createElement("auth-app") as HTMLElement & { app: unknown };
    for (const [name, value] of [["project-id", project.projectId], ["publishable-client-key", project.publishableClientKey], ["base-url", project.baseUrl], ["hosted-pages", ""]] as const) host.setAttribute(name, value);
    expect(() => host.app).to.throw("hosted-pages needs the full bundle, latchkey.iife.js");

    host.removeAttribute("hosted-pages");
    host.innerHTML = "<auth-sign-in></auth-sign-in>";
    document.body.append(host);
    const signUp = await until(() => [...host.querySelectorAll<HTMLAnchorElement>("a[part=link]")].find((a) => a.textContent === "Sign up"), 10_000, () => host.innerHTML);
    expect(signUp.href).to.equal(`${location.origin}/handler/sign-up`);
  });
});
