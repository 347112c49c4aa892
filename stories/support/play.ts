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

/** Waits for the element's alert and checks its text. */
export async function expectAlert(canvas: Canvas, text: string | RegExp): Promise<void> {
  const alert = await canvas.findByRole("alert", {}, { timeout: 5000 });
  await expect(alert).toHaveTextContent(text);
}

/** Waits until a submit button shows its loading state. */
export async function expectBusy(button: HTMLElement): Promise<void> {
  await waitFor(() => expect(button).toHaveAttribute("aria-busy", "true"));
  await expect(button).toBeDisabled();
}

export { expect, waitFor, within };
