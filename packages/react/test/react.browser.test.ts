import { expect } from "@esm-bundle/chai";
import { createClientApp, systemClock, tokensOfRequest } from "@latchkey/core";
import { sendKeys } from "@web/test-runner-commands";
import { createElement as h, type ReactNode } from "react";
import { AuthProvider, AuthSignIn, AuthUserButton, SignedIn, SignedOut, useApp, useAuth, useProject, useUser, type AuthState, type SignedInDetail } from "../src/index.js";
import { createProject, createUser, uniqueEmail, type BrowserTestProject } from "../../elements/test/support/harness.js";
import { render, textOf, waitFor, type Rendered } from "./support/render.js";

/**
 * @latchkey/react against the real Latchkey server of the test run: the provider, the hooks and the wrapped
 * elements, driven the way a person uses them (typing into the real inputs, pressing Enter, clicking).
 */

const PASSWORD = "correct horse battery staple";

/** Shows what the hooks say, as an app's header would, next to the sign-in form or the user button. */
function Header(props: { onSignedIn: (detail: SignedInDetail) => void; onSignedOut?: () => void }): ReactNode {
  const user = useUser();
  const project = useProject();
  const status = user === undefined ? "Loading user" : user === null ? "Signed out" : `Signed in as ${user.displayName}`;
  return h(
    "div",
    null,
    h("p", { id: "status" }, status),
    h("p", { id: "project" }, project ? `Project ${project.displayName}` : "Loading project"),
    user === null ? h(AuthSignIn, { noRedirect: true, onAuthSignedIn: (event) => props.onSignedIn(event.detail) }) : null,
    user ? h(AuthUserButton, { showName: true, onAuthSignedOut: () => props.onSignedOut?.() }) : null,
  );
}

/** Types into a real input as a keyboard would: focus, then key presses through the browser. */
async function typeInto(input: HTMLInputElement, text: string): Promise<void> {
  input.focus();
  await sendKeys({ type: text });
}

/** An app of the project whose redirects are recorded instead of leaving the test page. */
function recordingApp(project: BrowserTestProject) {
  const visited: string[] = [];
  const app = createClientApp({
    projectId: project.projectId,
    publishableClientKey: project.publishableClientKey,
    baseUrl: project.baseUrl,
    tokenStore: "memory",
    navigate: (url) => void visited.push(url),
  });
  return { app, visited };
}

describe("@latchkey/react", () => {
  let project: BrowserTestProject;
  let email: string;
  let userId: string;
  let rendered: Rendered | undefined;

  before(async () => {
    project = await createProject();
    email = uniqueEmail("react");
    ({ userId } = await createUser(project, { email, password: PASSWORD, displayName: "Ada Lovelace", primaryEmailVerified: true }));
  });

  afterEach(() => {
    rendered?.unmount();
    rendered = undefined;
  });

  it("shows a signed-out user as null, then the user after signing in through AuthSignIn", async () => {
    const signedIn: SignedInDetail[] = [];
    rendered = render(
      h(
        AuthProvider,
        { projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: project.baseUrl, tokenStore: "memory" },
        h(Header, { onSignedIn: (detail) => signedIn.push(detail) }),
      ),
    );
    const { container } = rendered;
    const status = () => textOf(container.querySelector("#status"));

    await waitFor("the signed-out status", () => status() === "Signed out");
    await waitFor("the project's name from useProject", () => /^Project Browser test \d+$/.test(textOf(container.querySelector("#project"))));

    const emailInput = await waitFor("the email input", () => container.querySelector<HTMLInputElement>("auth-sign-in input[name=email]"));
    const passwordInput = container.querySelector<HTMLInputElement>("auth-sign-in input[name=password]")!;
    await typeInto(emailInput, email);
    await typeInto(passwordInput, PASSWORD);
    await sendKeys({ press: "Enter" });

    await waitFor("the signed-in status", () => status() === "Signed in as Ada Lovelace");
    expect(signedIn).to.deep.equal([{ userId, isNewUser: false }]);
    const button = await waitFor("the user button", () => container.querySelector("auth-user-button"));
    await waitFor("the name in the user button", () => textOf(button).includes("Ada Lovelace"));
    expect(container.querySelector("auth-sign-in")).to.equal(null);
  });

  it("shares one session between hooks and elements when given an app, themes them, and signs out through AuthUserButton", async () => {
    // The sign-out redirect is recorded instead of leaving the test page.
    const { app, visited } = recordingApp(project);
    await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    let signedOut = 0;

    function Probe(): ReactNode {
      // The hook must hand out the very app the provider was given.
      return h("p", { id: "same-app" }, useApp() === app ? "same app" : "another app");
    }
    rendered = render(h(AuthProvider, { app, theme: "dark" }, h(Probe), h(Header, { onSignedIn: () => {}, onSignedOut: () => signedOut++ })));
    const { container } = rendered;

    expect(textOf(container.querySelector("#same-app"))).to.equal("same app");
    expect(container.querySelector("auth-app")?.getAttribute("theme")).to.equal("dark");
    await waitFor("the signed-in status", () => textOf(container.querySelector("#status")) === "Signed in as Ada Lovelace");
    const menuButton = await waitFor("the user menu button", () => container.querySelector<HTMLButtonElement>("auth-user-button [aria-haspopup=menu]"));
    menuButton.click();
    const signOut = await waitFor("the Sign out menu item", () =>
      [...container.querySelectorAll<HTMLElement>("auth-user-button [role=menuitem]")].find((item) => textOf(item) === "Sign out"),
    );
    signOut.click();

    await waitFor("the signed-out status", () => textOf(container.querySelector("#status")) === "Signed out");
    expect(signedOut).to.equal(1);
    expect(visited).to.deep.equal(["/"]);
  });

  it("offers the Clerk- and Stack-style API: SignedIn/SignedOut, useAuth's token and headers, useUser's or", async () => {
    const { app, visited } = recordingApp(project);
    const auth: { current?: AuthState } = {};
    function Probe(): ReactNode {
      auth.current = useAuth();
      return h("p", { id: "auth" }, auth.current.isLoaded ? (auth.current.isSignedIn ? "in" : "out") : "loading");
    }
    function MustBeSignedIn(): ReactNode {
      const user = useUser({ or: "redirect" });
      return h("p", { id: "redirecting" }, user ? user.displayName : "redirecting");
    }
    rendered = render(
      h(
        AuthProvider,
        { app },
        h(Probe),
        h(SignedIn, null, h("p", { id: "signed-in" }, "members only")),
        h(SignedOut, null, h("p", { id: "signed-out" }, "please sign in"), h(MustBeSignedIn)),
      ),
    );
    const { container } = rendered;
    await waitFor("the signed-out part", () => container.querySelector("#signed-out"));
    expect(container.querySelector("#signed-in")).to.equal(null);
    expect(textOf(container.querySelector("#redirecting"))).to.equal("redirecting");
    await waitFor("the redirect to sign-in", () => visited.length === 1);
    expect(new URL(visited[0]!, location.href).pathname).to.equal("/handler/sign-in");
    expect(await auth.current!.getToken()).to.equal(null);

    await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    await waitFor("the signed-in part", () => container.querySelector("#signed-in"));
    expect(container.querySelector("#signed-out")).to.equal(null);
    expect(textOf(container.querySelector("#auth"))).to.equal("in");
    // The token calls the app's API as this user; the headers carry the session for a server-side app.
    const token = (await auth.current!.getToken())!;
    const me = await fetch(`${project.baseUrl}/api/v1/users/me`, {
      headers: { "x-stack-project-id": project.projectId, "x-stack-access-type": "client", "x-stack-publishable-client-key": project.publishableClientKey, "x-stack-access-token": token },
    });
    expect(((await me.json()) as { id: string }).id).to.equal(userId);
    const headers = await auth.current!.getAuthHeaders();
    expect(tokensOfRequest(project.projectId, { headers: new Headers(headers) })).to.deep.equal({ accessToken: token, refreshToken: app.session.peek().refreshToken });
  });

  it("reports an unreachable server as state, without taking the tree down", async () => {
    // Nothing listens on port 9; the retries' backoff is skipped (the app's clock sleeps no time).
    const clock = { ...systemClock, sleep: async () => {} };
    const app = createClientApp({ projectId: project.projectId, publishableClientKey: project.publishableClientKey, baseUrl: "http://127.0.0.1:9", tokenStore: "memory", isOnline: () => true, clock });
    // Signed in (a stored session), so the user must be fetched from the server that cannot be reached.
    app.session.signIn({ accessToken: "not-a-token", refreshToken: "a-refresh-token" });
    function Probe(): ReactNode {
      const { isLoaded, error } = useAuth();
      return h("p", { id: "state" }, isLoaded ? "loaded" : error ? "server unreachable" : "loading");
    }
    rendered = render(h(AuthProvider, { app }, h(Probe)));
    await waitFor("the error as state", () => textOf(rendered!.container.querySelector("#state")) === "server unreachable", 20_000);
  });

  it("tells a developer who forgot the provider what is missing", async () => {
    function Orphan(): ReactNode {
      try {
        useUser();
        return h("p", null, "no error");
      } catch (error) {
        return h("p", null, (error as Error).message);
      }
    }
    rendered = render(h(Orphan));
    expect(textOf(rendered.container)).to.equal("useApp() needs an <AuthProvider> above this component.");
  });
});
