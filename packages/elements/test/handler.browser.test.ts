import { expect } from "@esm-bundle/chai";
import { createProject, createUser, uniqueEmail } from "./support/harness.js";
import { mount, unmountAll, until } from "./support/mount.js";

const original = location.pathname + location.search;

/** Shows `<auth-handler>` as if the page were at `path`. */
async function handlerAt(path: string) {
  history.replaceState(null, "", path);
  const project = await createProject();
  return { project, ...(await mount(project, "<auth-handler></auth-handler>")) };
}

describe("<auth-handler>", () => {
  afterEach(() => {
    unmountAll();
    history.replaceState(null, "", original);
  });

  for (const [page, element] of [
    ["sign-in", "auth-sign-in"],
    ["sign-up", "auth-sign-up"],
    ["forgot-password", "auth-forgot-password"],
    ["password-reset", "auth-password-reset"],
    ["email-verification", "auth-email-verification"],
    ["magic-link-callback", "auth-magic-link-callback"],
  ] as const) {
    it(`shows ${element} at /handler/${page}`, async () => {
      const { q } = await handlerAt(`/handler/${page}?code=abc`);
      await until(() => q(element));
    });
  }

  it("shows the error named in the URL", async () => {
    const { host } = await handlerAt("/handler/error?errorCode=OAUTH_PROVIDER_ACCESS_DENIED&message=The%20provider%20refused.");
    await until(() => host.querySelector("h2"));
    expect(host.querySelector("[role=alert]")?.textContent).to.equal("The provider refused.");
    expect(host.textContent).to.contain("OAUTH_PROVIDER_ACCESS_DENIED");
  });

  it("shows a known error code with its own readable message rather than the URL's text", async () => {
    const { host } = await handlerAt("/handler/error?errorCode=VERIFICATION_CODE_EXPIRED&message=Call%20this%20number%20to%20continue.");
    await until(() => host.querySelector("h2"));
    expect(host.querySelector("[role=alert]")?.textContent).to.equal("This code has expired. Ask for a new one.");
    expect(host.textContent).to.contain("VERIFICATION_CODE_EXPIRED");
  });

  it("says a page it does not know is not found", async () => {
    const { host } = await handlerAt("/handler/no-such-page");
    await until(() => host.querySelector("h2")?.textContent === "Page not found");
  });

  it("signs out at /handler/sign-out and goes to after-sign-out", async () => {
    history.replaceState(null, "", "/handler/sign-out");
    const project = await createProject();
    const address = uniqueEmail();
    await createUser(project, { email: address, password: "correct horse battery" });
    // Sign in first, then show the handler with that signed-in app.
    const { app, navigations } = await mount(project, "<div></div>");
    await app.signInWithCredential({ email: address, password: "correct horse battery", noRedirect: true });
    const handler = document.createElement("auth-handler");
    document.querySelector("auth-app")!.append(handler);
    await until(() => navigations.length > 0);
    expect(navigations).to.deep.equal(["/"]);
    expect(await app.getUser()).to.equal(null);
  });
});
