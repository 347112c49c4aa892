import { expect } from "@esm-bundle/chai";
import { createClientApp, type CachedStore, type ClientApp } from "@latchkey/core";
import { createElement as h, type ReactNode } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { AuthProvider, Protect, SignedIn, SignedOut, useAuth, useProject, useTeams, useUser } from "../src/index.js";
import { createProject, createUser, uniqueEmail, type BrowserTestProject } from "../../elements/test/support/harness.js";
import { textOf, waitFor } from "./support/render.js";

/**
 * Issue 31: server-rendered HTML hydrated by a page whose session has already settled. The server knows nothing of
 * the session and renders "loading"; in the browser the stores may settle before hydration reaches a reader
 * (signed out, the user is known without a request). Every hook and `<SignedIn>`/`<SignedOut>`/`<Protect>` must
 * still render the server's answer while hydrating, or React reports a mismatch ("Hydration failed because the
 * server rendered text didn't match the client", error #418 in production), and show the session right after.
 * demo/test/next-hydration.e2e.test.ts checks the same in a Next.js app.
 */

const PASSWORD = "correct horse battery staple";

/** Every reader on one page, as an app has them: the header's controls and the body's own hooks. */
function Page(props: { app: ClientApp }): ReactNode {
  return h(
    AuthProvider,
    { app: props.app },
    h(SignedIn, null, h("p", { "data-part": "" }, "Account menu")),
    h(SignedOut, null, h("p", { "data-part": "" }, "Sign in")),
    h(Protect, { fallback: h("p", { "data-part": "" }, "Members only") }, h("p", { "data-part": "" }, "Members' area")),
    h(Readers),
  );
}

function Readers(): ReactNode {
  const user = useUser();
  const { isLoaded, isSignedIn } = useAuth();
  const teams = useTeams();
  const project = useProject();
  return h(
    "ul",
    null,
    // As packages/react/README.md writes it.
    h("li", { "data-part": "" }, user === undefined ? "Loading…" : user ? `Hello ${user.primaryEmail}` : "Signed out"),
    h("li", { "data-part": "" }, `Session: ${isLoaded ? (isSignedIn ? "signed in" : "signed out") : "loading"}`),
    h("li", { "data-part": "" }, `Teams: ${teams === undefined ? "loading" : teams.length}`),
    h("li", { "data-part": "" }, `Project: ${project === undefined ? "loading" : "known"}`),
  );
}

function appOf(project: BrowserTestProject): ClientApp {
  return createClientApp({ projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: project.baseUrl, tokenStore: "memory", navigate: () => {} });
}

/** Resolves once `store` has loaded (keeping it loaded: the listener stays). */
function settled(store: CachedStore<unknown>): Promise<void> {
  return new Promise((resolve) => {
    const check = () => store.get().status !== "loading" && resolve();
    store.listen(check);
    check();
  });
}

describe("hydrating server-rendered hooks", () => {
  let project: BrowserTestProject;
  let container: HTMLElement | undefined;
  let root: Root | undefined;

  before(async () => {
    project = await createProject();
  });

  afterEach(() => {
    root?.unmount();
    container?.remove();
    root = container = undefined;
  });

  /**
   * The server's HTML (from an app of its own, as a server has), hydrated with `app`: what hydration reported
   * (recoverable errors and console errors, where React puts mismatches) and the text of each part.
   */
  async function hydrate(app: ClientApp): Promise<{ problems: string[]; shown: () => string[] }> {
    const html = renderToString(h(Page, { app: appOf(project) }));
    expect(html).to.contain("<li data-part=\"\">Loading…</li>");
    container = document.createElement("div");
    container.innerHTML = html;
    document.body.append(container);
    const problems: string[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => {
      problems.push(args.map(String).join(" "));
      consoleError.apply(console, args);
    };
    try {
      root = hydrateRoot(container, h(Page, { app }), { onRecoverableError: (error) => problems.push(`recoverable: ${String(error)}`) });
      const hydrated = container;
      await waitFor("hydration to settle", () => !textOf(hydrated).includes("loading") && !textOf(hydrated).includes("Loading"));
    } finally {
      console.error = consoleError;
    }
    return { problems, shown: () => [...container!.querySelectorAll("[data-part]")].map((part) => textOf(part)) };
  }

  it("renders the server's \"loading\" while hydrating a signed-out page whose session is already known, then signed out", async () => {
    const app = appOf(project);
    await Promise.all([settled(app.$user), settled(app.$teams), settled(app.$project)]);
    expect(app.$user.get()).to.deep.equal({ status: "ready", value: null });

    const { problems, shown } = await hydrate(app);
    expect(problems).to.deep.equal([]);
    expect(shown()).to.deep.equal(["Sign in", "Members only", "Signed out", "Session: signed out", "Teams: 0", "Project: known"]);
  });

  it("renders the server's \"loading\" while hydrating a signed-in page whose user is already loaded, then the user", async () => {
    const email = uniqueEmail("hydration");
    await createUser(project, { email, password: PASSWORD, primaryEmailVerified: true });
    const app = appOf(project);
    await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    await Promise.all([settled(app.$user), settled(app.$teams), settled(app.$project)]);
    expect(app.$user.get().status).to.equal("ready");

    const { problems, shown } = await hydrate(app);
    expect(problems).to.deep.equal([]);
    // Protect's children wait for nothing more: no permission is asked for.
    expect(shown()).to.deep.equal(["Account menu", "Members' area", `Hello ${email}`, "Session: signed in", "Teams: 0", "Project: known"]);
  });
});
