import type { ClientApp } from "@latchkey/core";

/**
 * How elements find their app: the closest `<auth-app>` ancestor, else the page's default app (set by
 * `init()`). Elements may connect before either exists (a script tag after the markup), so they also
 * listen for apps appearing.
 */
let defaultApp: ClientApp | undefined;
const listeners = new Set<() => void>();

export interface AppHost extends Element {
  readonly app: ClientApp | undefined;
}

export function setDefaultApp(app: ClientApp | undefined): void {
  defaultApp = app;
  announceAppChange();
}

export function getDefaultApp(): ClientApp | undefined {
  return defaultApp;
}

export function findApp(element: Element): ClientApp | undefined {
  const host = element.closest("auth-app") as AppHost | null;
  return host?.app ?? defaultApp;
}

/** Tells every connected element to look for its app again. */
export function announceAppChange(): void {
  for (const listener of [...listeners]) listener();
}

export function onAppChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
