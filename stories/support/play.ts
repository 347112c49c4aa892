import { expect, userEvent, waitFor, within } from "storybook/test";

/**
 * What a person does in a story's `play`: type into labelled fields, press a button, and wait for what
 * the element shows in answer. Queries go by label and role, as assistive technology finds them.
 */

export type Canvas = ReturnType<typeof within>;

/** Waits for the element's form (the project loads first), then types into each labelled field. */
export async function fill(canvas: Canvas, fields: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(fields)) {
    const input = await canvas.findByLabelText(label, { exact: true });
    await userEvent.clear(input);
    await userEvent.type(input, value);
  }
}

export async function press(canvas: Canvas, name: string | RegExp): Promise<HTMLElement> {
  const button = await canvas.findByRole("button", { name });
  await userEvent.click(button);
  return button;
}

/** What the elements say when a request never reached the server (fetch rejected). */
export const NETWORK_FAILURE = "The server cannot be reached. Check your connection and try again.";

/** Waits for the element's alert and checks its text. */
export async function expectAlert(canvas: Canvas, text: string | RegExp): Promise<void> {
  const alert = await canvas.findByRole("alert", {}, { timeout: 5000 });
  await expect(alert).toHaveTextContent(text);
}

/**
 * Waits until a submit button shows its loading state: busy, and unavailable, natively (`disabled`) or for
 * assistive technology only (`aria-disabled`, which keeps the button focusable while the request runs).
 */
export async function expectBusy(button: HTMLElement): Promise<void> {
  await waitFor(() => expect(button).toHaveAttribute("aria-busy", "true"));
  await expect((button as HTMLButtonElement).disabled || button.getAttribute("aria-disabled") === "true").toBe(true);
}

export { expect, waitFor, within };

/** Waits for a section's list (or whatever `name` labels) to have loaded: its loading status is gone. */
export async function expectLoaded(canvas: Canvas): Promise<void> {
  await waitFor(() => expect(canvas.queryByText("Loading…")).toBeNull(), { timeout: 5000 });
}

/** Clicks the button that names an item (`aria-describedby` ties "Revoke" to "Laptop CLI"). */
export async function pressFor(canvas: Canvas, name: string | RegExp, description: string | RegExp): Promise<HTMLElement> {
  const buttons = await canvas.findAllByRole("button", { name, description });
  await userEvent.click(buttons[0]!);
  return buttons[0]!;
}

/** Waits for the open modal dialog (a confirmation, a new key) and returns a query scope inside it. */
export async function openDialog(canvas: Canvas, name: string | RegExp): Promise<Canvas> {
  const dialog = await canvas.findByRole("dialog", { name });
  await expect(dialog).toHaveAttribute("open");
  return within(dialog);
}

/** Waits for a status message (role="status") with this text. */
export async function expectStatus(canvas: Canvas, text: string | RegExp): Promise<void> {
  await waitFor(() => expect(canvas.getAllByRole("status").some((status: HTMLElement) => (typeof text === "string" ? status.textContent?.includes(text) : text.test(status.textContent ?? "")))).toBe(true), { timeout: 5000 });
}

export { userEvent };

/** Nothing is wider than the frame: the page does not scroll sideways (long words wrap, wide parts shrink). */
export async function expectNoSidewaysScroll(): Promise<void> {
  const { scrollWidth, clientWidth } = document.documentElement;
  await expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

/**
 * Opens a tab of `<auth-account-settings>` by its title: the tab on a wide page, the section menu (a select)
 * on a narrow one. Waits until the tab exists (it appears once the project's settings have loaded).
 */
export async function openAccountTab(canvasElement: HTMLElement, title: string): Promise<void> {
  const [menu, option] = await waitFor(() => {
    const select = canvasElement.querySelector<HTMLSelectElement>("auth-account-settings select[part=menu]");
    const option = [...(select?.options ?? [])].find((o) => o.text === title);
    if (!option) throw new Error(`no "${title}" tab yet`);
    return [select!, option] as const;
  });
  const tab = within(menu.closest("auth-account-settings")!).queryByRole("tab", { name: title });
  if (tab) await userEvent.click(tab);
  else await userEvent.selectOptions(menu, option.value);
}
