import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expectAlert, expectBusy, openDialog, press, userEvent, within, type Canvas } from "./support/play.js";
import { dark, serves, signedIn } from "./support/story-app.js";

/** `<auth-delete-account>`: the danger zone; deleting asks to type DELETE (or the email) in a dialog. */
const meta: Meta = {
  title: "Account/Delete account",
  component: "auth-delete-account",
  render: () => html`<auth-delete-account></auth-delete-account>`,
};
export default meta;
type Story = StoryObj;

const deletion = { client_user_deletion_enabled: true };
const confirmLabel = /to confirm/;

export const Default: Story = { ...signedIn({ config: deletion }) };

async function openConfirmation(canvas: Canvas): Promise<Canvas> {
  await press(canvas, "Delete account");
  return openDialog(canvas, "Delete your account?");
}

export const ConfirmDialog: Story = {
  ...signedIn({ config: deletion }),
  play: async ({ canvasElement }) => void (await openConfirmation(within(canvasElement))),
};

export const DarkConfirmDialog: Story = dark({ ...ConfirmDialog });

/** What was typed matches neither DELETE nor the email: nothing is sent. */
export const ConfirmationMismatch: Story = {
  ...signedIn({ config: deletion }),
  play: async ({ canvasElement }) => {
    const dialog = await openConfirmation(within(canvasElement));
    await userEvent.type(await dialog.findByLabelText(confirmLabel), "delete me");
    await press(dialog, "Delete my account");
    await expectAlert(dialog, "That does not match. Nothing was deleted.");
  },
};

export const Deleting: Story = {
  ...signedIn({ config: deletion, answers: { "DELETE /users/me": { pending: true } } }),
  play: async ({ canvasElement }) => {
    const dialog = await openConfirmation(within(canvasElement));
    await userEvent.type(await dialog.findByLabelText(confirmLabel), "DELETE");
    await expectBusy(await press(dialog, "Delete my account"));
  },
};

export const DeleteFailed: Story = {
  ...signedIn({ config: deletion, answers: { "DELETE /users/me": { json: { error: "Service unavailable" }, status: 503 } } }),
  play: async ({ canvasElement }) => {
    const dialog = await openConfirmation(within(canvasElement));
    await userEvent.type(await dialog.findByLabelText(confirmLabel), "ada@example.com");
    await press(dialog, "Delete my account");
    await dialog.findByRole("alert", {}, { timeout: 5000 });
  },
};

/** The project does not let users delete their own account. */
export const NotAllowed: Story = { ...signedIn() };

export const SignedOut: Story = { ...serves({ config: deletion }) };
