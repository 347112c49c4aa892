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

  it("renders every hook's and control's loading state without asking the Latchkey server anything", async () => {
    const { AuthProvider, Protect, SignedIn, SignedOut, useAuth, useProject, useTeams, useUser } = await import("@latchkey/react");
    const { createClientApp } = await import("@latchkey/core");
    // Issue 31: the server renders "loading" whatever the session; a hook that read its store here would start
    // loading the user, the teams and the project from the server rendering the page, for nothing.
    const requests: string[] = [];
    const app = createClientApp({
      projectId: "internal",
      publishableClientKey: "pck_test",
      baseUrl: "http://127.0.0.1:9",
      tokenStore: "memory",
      fetch: async (input) => {
        requests.push(String(input instanceof Request ? input.url : input));
        return new Response("{}", { status: 500 });
      },
    });
    function Readers() {
      const user = useUser();
      const { isLoaded } = useAuth();
      const teams = useTeams();
      const project = useProject();
      return h("p", null, [user, teams, project].map((value) => (value === undefined ? "loading" : "known")).join(" "), isLoaded ? " loaded" : " not loaded");
    }
    const html = renderToString(
      h(AuthProvider, { app }, h(SignedIn, null, "in"), h(SignedOut, null, "out"), h(Protect, { fallback: "members only" }, "members"), h(Readers)),
    );
    expect(html).toBe("<auth-app><p>loading loading loading<!-- --> not loaded</p></auth-app>");
    // Everything a load would have started without waiting on the network (token lookups, promise chains) has run.
    await new Promise((resolve) => setImmediate(resolve));
    expect(requests).toEqual([]);
  });

  it("renders the pricing table, the item balance and useItem's loading state without asking the server anything", async () => {
    const { AuthItemBalance, AuthPricingTable, AuthProvider, useItem, useOffers } = await import("@latchkey/react");
    const { createClientApp } = await import("@latchkey/core");
    const requests: string[] = [];
    const app = createClientApp({
      projectId: "internal",
      publishableClientKey: "pck_test",
      baseUrl: "http://127.0.0.1:9",
      tokenStore: "memory",
      fetch: async (input) => {
        requests.push(String(input instanceof Request ? input.url : input));
        return new Response("{}", { status: 500 });
      },
    });
    function Credits() {
      const credits = useItem("credits");
      const plans = useOffers({ groupId: "plans" });
      return h("p", null, credits === undefined && plans === undefined ? "loading" : "known");
    }
    const html = renderToString(h(AuthProvider, { app }, h(AuthPricingTable, { group: "plans" }), h(AuthItemBalance, { item: "credits" }), h(Credits)));
    expect(html).toBe("<auth-app><auth-pricing-table></auth-pricing-table><auth-item-balance></auth-item-balance><p>loading</p></auth-app>");
    await new Promise((resolve) => setImmediate(resolve));
    expect(requests).toEqual([]);
  });
});
