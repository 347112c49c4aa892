import { KnownErrors } from "@latchkey/core";
import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expectAlert, expectBusy, expectStatus, fill, press, within } from "./support/play.js";
import { dark, serves, signedIn } from "./support/story-app.js";

/** `<auth-password-settings>`: change a password, or set one on an account made without. */
const meta: Meta = {
  title: "Account/Password settings",
  component: "auth-password-settings",
  render: () => html`<auth-password-settings></auth-password-settings>`,
};
export default meta;
type Story = StoryObj;

const change = { "Current password": "correct horse battery", "New password": "staple engine difference", "Repeat new password": "staple engine difference" };

export const ChangePassword: Story = { ...signedIn() };

/** Made with a magic link or OAuth: there is no current password to give. */
export const SetPassword: Story = { ...signedIn({ user: { has_password: false } }) };

export const DarkChangePassword: Story = dark({ ...signedIn() });

export const Changing: Story = {
  ...signedIn({ answers: { "POST /auth/password/update": { pending: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, change);
    await expectBusy(await press(canvas, "Change password"));
  },
};

export const Changed: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, change);
    await press(canvas, "Change password");
    await expectStatus(canvas, "Your password has been changed.");
  },
};

export const PasswordSet: Story = {
  ...signedIn({ user: { has_password: false } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { "New password": "staple engine difference", "Repeat new password": "staple engine difference" });
    await press(canvas, "Set password");
    await expectStatus(canvas, "Your password has been set.");
  },
};

/** Checked in the browser before anything is sent. */
export const PasswordsDoNotMatch: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { ...change, "Repeat new password": "staple engine different" });
    await press(canvas, "Change password");
    await expectAlert(canvas, "Passwords do not match");
  },
};

export const TooShort: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { ...change, "New password": "short", "Repeat new password": "short" });
    await press(canvas, "Change password");
    await expectAlert(canvas, "The password must be at least 8 characters long.");
  },
};

export const WrongCurrentPassword: Story = {
  ...signedIn({ answers: { "POST /auth/password/update": { knownError: new KnownErrors.PasswordConfirmationMismatch() } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, change);
    await press(canvas, "Change password");
    await expectAlert(canvas, "The current password is wrong.");
  },
};

export const SignedOut: Story = { ...serves({}) };
