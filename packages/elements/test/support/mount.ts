import { createClientApp, type ClientApp } from "@latchkey/core";
import type { AuthAppElement } from "../../src/index.js";
import "../../src/index.js";
import type { BrowserTestProject } from "./harness.js";

export { fill, until, untilFocused } from "./dom.js";

export interface Mounted {
  app: ClientApp;
  host: AuthAppElement;
  /** Where the app navigated to (tests stay on the page). */
  navigations: string[];
  /** Events the elements fired, by type. */
  events: CustomEvent[];
  q<E extends Element = HTMLElement>(selector: string): E;
}

const EVENTS = [
  "auth-signed-in",
  "auth-signed-up",
  "auth-reset-email-sent",
  "auth-password-reset",
  "auth-email-verified",
  "auth-signed-out",
  "auth-mfa-changed",
  "auth-passkey-added",
  "auth-cli-login-confirmed",
  "auth-password-changed",
  "auth-account-deleted",
  "auth-team-changed",
  "auth-team-invitation-accepted",
];

/**
 * Puts `markup` inside an `<auth-app>` whose app talks to the real test server, keeps tokens in memory (so
 * tests do not share a session through cookies), and records navigations instead of leaving the page.
 */
export async function mount(project: BrowserTestProject, markup: string, options: { currentUrl?: string } = {}): Promise<Mounted> {
  const navigations: string[] = [];
  const app = createClientApp({
    projectId: project.projectId,
    publishableClientKey: project.publishableClientKey,
    baseUrl: project.baseUrl,
    tokenStore: "memory",
    navigate: (url) => void navigations.push(url),
    currentUrl: () => options.currentUrl ?? location.href,
  });
  const host = document.createElement("auth-app");
  host.app = app;
  host.innerHTML = markup;
  const events: CustomEvent[] = [];
  for (const type of EVENTS) host.addEventListener(type, (event) => events.push(event as CustomEvent));
  document.body.append(host);
  return {
    app,
    host,
    navigations,
    events,
    q: <E extends Element = HTMLElement>(selector: string) => {
      const found = host.querySelector<E>(selector);
      if (!found) throw new Error(`Nothing matches ${selector} in: ${host.innerHTML.replace(/<!--[^>]*-->/g, "")}`);
      return found;
    },
  };
}

export function unmountAll(): void {
  for (const host of document.querySelectorAll("auth-app")) host.remove();
}

/** The text of what is visible as an alert, whitespace collapsed. */
export function alerts(root: Element): string[] {
  return [...root.querySelectorAll("[role=alert]")].map((el) => el.textContent!.replace(/\s+/g, " ").trim());
}
