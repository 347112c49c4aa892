import type { ReactNode } from "react";
import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";

/**
 * Rendering helpers for the React tests: a real react-dom root in the test page, and polling for what a
 * person would see, since the elements and hooks settle after network round trips to the real server.
 */

export interface Rendered {
  container: HTMLElement;
  root: Root;
  unmount(): void;
}

/** Renders `node` into a fresh container, committed before it returns (later updates are awaited with waitFor). */
export function render(node: ReactNode): Rendered {
  const container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  flushSync(() => root.render(node));
  return {
    container,
    root,
    unmount() {
      root.unmount();
      container.remove();
    },
  };
}

/** Polls until `probe` returns a truthy value (≤ `timeoutMs`), then returns it; fails with `what` otherwise. */
export async function waitFor<T>(what: string, probe: () => T | null | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The visible text of an element, whitespace collapsed. */
export function textOf(element: Element | null): string {
  return (element?.textContent ?? "").replace(/\s+/g, " ").trim();
}
