import { KnownErrors } from "@latchkey/core";
import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, expectAlert, expectBusy, fill, press, within } from "./support/play.js";
import type { StoryServer } from "./support/story-app.js";

/** `<auth-password-reset code="…">`: the link's code is checked first, then a new password is set. */
const meta: Meta = {
  title: "Elements/Password reset",
  component: "auth-password-reset",
  args: { code: "story-reset-code" },
  render: (args) => html`<auth-password-reset code=${args.code}></auth-password-reset>`,
};
export default meta;
type Story = StoryObj;

const server = (latchkey: StoryServer) => ({ parameters: { latchkey } });
const newPassword = (password: string, repeat = password) => ({ "New password": password, "Repeat new password": repeat });

export const Default: Story = {};

export const CheckingLink: Story = { ...server({ answers: { "POST /auth/password/reset/check-code": { pending: true } } }) };

export const LinkExpired: Story = { ...server({ answers: { "POST /auth/password/reset/check-code": { knownError: new KnownErrors.VerificationCodeExpired() } } }) };

export const LinkAlreadyUsed: Story = {
  ...server({ answers: { "POST /auth/password/reset/check-code": { knownError: new KnownErrors.VerificationCodeAlreadyUsed() } } }),
};

export const InvalidLink: Story = { ...server({ answers: { "POST /auth/password/reset/check-code": { knownError: new KnownErrors.VerificationCodeNotFound() } } }) };

export const Resetting: Story = {
  ...server({ answers: { "POST /auth/password/reset": { pending: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, newPassword("a new long passphrase"));
    await expectBusy(await press(canvas, "Reset password"));
  },
};

export const Done: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, newPassword("a new long passphrase"));
    await press(canvas, "Reset password");
    await expect(await canvas.findByText("Your password has been reset. You can now sign in with it.")).toBeVisible();
  },
};

export const PasswordTooShort: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, newPassword("short"));
    await press(canvas, "Reset password");
    await expectAlert(canvas, "The password must be at least 8 characters long.");
  },
};

export const PasswordsDoNotMatch: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, newPassword("a new long passphrase", "another passphrase"));
    await press(canvas, "Reset password");
    await expectAlert(canvas, "Passwords do not match.");
  },
};
