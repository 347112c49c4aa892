import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, expectAlert, fill, openDialog, press, within } from "./support/play.js";
import { dark, signedIn } from "./support/story-app.js";

/** `<auth-mfa-settings>`: turn on TOTP (QR code, key, confirm with a code), turn it off. */
const meta: Meta = {
  title: "Account/Two-factor settings",
  component: "auth-mfa-settings",
  render: () => html`<auth-mfa-settings></auth-mfa-settings>`,
};
export default meta;
type Story = StoryObj;

export const Off: Story = { ...signedIn() };

export const On: Story = { ...signedIn({ user: { requires_totp_mfa: true } }) };

/** After "Turn on": the QR code and the key, and the field for the first code. */
export const Enrolling: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Turn on two-factor authentication");
    await expect(await canvas.findByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  },
};

export const DarkEnrolling: Story = dark({ ...Enrolling });

/** The code is checked against the new secret in the browser before anything is saved. */
export const WrongCode: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Turn on two-factor authentication");
    await fill(canvas, { Code: "000000" });
    await press(canvas, "Turn on");
    await expectAlert(canvas, "The code is invalid. Please try again.");
  },
};

export const TurnedOff: Story = {
  ...signedIn({ user: { requires_totp_mfa: true } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Turn off two-factor authentication");
    await press(await openDialog(canvas, "Turn off two-factor authentication?"), "Turn off");
    await canvas.findByRole("button", { name: "Turn on two-factor authentication" });
  },
};

export const TurningOffFailed: Story = {
  ...signedIn({ user: { requires_totp_mfa: true }, answers: { "PATCH /users/me": { json: { error: "Service unavailable" }, status: 503 } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Turn off two-factor authentication");
    await press(await openDialog(canvas, "Turn off two-factor authentication?"), "Turn off");
    await canvas.findByRole("alert", {}, { timeout: 5000 });
  },
};

export const Loading: Story = { ...signedIn({ answers: { "GET /users/me": { pending: true } } }) };
