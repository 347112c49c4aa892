import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

// Issue 16 §4: server-rendered React apps import @latchkey/react (and so @latchkey/elements) in Node, where there
// is no DOM. Importing must not throw, and the components render their custom-element tags, which the browser
// upgrades once the script runs; hooks answer "still loading" on the server.

describe("server rendering", () => {
  it("imports the elements and the React package in Node without a DOM", async () => {
    expect(typeof (globalThis as { HTMLElement?: unknown }).HTMLElement).toBe("undefined");
    const elements = await import("@latchkey/elements");
    expect(typeof elements.AuthSignInElement).toBe("function");
    const react = await import("@latchkey/react");
    expect(typeof react.AuthProvider).toBe("function");
    // The first import transforms every module of both packages from source: seconds on a busy machine.
  }, 60_000);

  it("renders the provider, the sign-in form and the user button as tags, with the user still loading", async () => {
    const { AuthProvider, AuthSignIn, AuthUserButton, useUser } = await import("@latchkey/react");
    function Greeting() {
      const user = useUser();
      return h("p", null, user === undefined ? "Loading…" : user === null ? "Signed out" : `Hello ${user.primaryEmail}`);
    }
    // A server that is never reached: rendering must not wait for it, nor fail because of it.
    const html = renderToString(
      h(AuthProvider, { projectId: "internal", publishableClientKey: "pck_test", baseUrl: "http://127.0.0.1:9" }, h(AuthUserButton, { showName: true }), h(Greeting), h(AuthSignIn)),
    );
    // `showName` is a property of the element (Lit declares it on the class), so React sets it once the page
    // hydrates rather than writing an attribute here (`showName=""` would not have been its `show-name` anyway).
    expect(html).toBe("<auth-app><auth-user-button></auth-user-button><p>Loading…</p><auth-sign-in></auth-sign-in></auth-app>");
  });
});
