/** DOM helpers for the browser tests, free of any import of the elements (the script-tag test needs that). */

/** Waits until `check` returns something truthy (polling every 20 ms), or fails after `ms`. */
export async function until<T>(check: () => T, ms = 10_000, what: string | (() => string) = "condition"): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    let value: T | undefined;
    try {
      value = check();
    } catch {
      value = undefined;
    }
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${typeof what === "string" ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Fills an input as typing would (value + input event). */
export function fill(input: HTMLInputElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

/**
 * Waits until `element` has the focus. Focus often moves a task later than what a test waits for (a
 * closing dialog's `close` event, a re-render), so checking `document.activeElement` at once would race.
 */
export async function untilFocused(element: Element, ms = 2_000): Promise<void> {
  const describe = (el: Element | null) => (el ? el.outerHTML.slice(0, 200) : "nothing");
  await until(() => document.activeElement === element, ms, () => `focus on ${describe(element)}; it is on ${describe(document.activeElement)}`);
}
