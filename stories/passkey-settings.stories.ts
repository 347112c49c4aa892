import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, press, within } from "./support/play.js";
import { dark, signedIn } from "./support/story-app.js";

/**
 * `<auth-passkey-settings>`: add a passkey, turn passkey sign-in off. Registering needs a real authenticator
 * (the end-to-end tests use Chrome's virtual one), so the stories show the states around it.
 */
const meta: Meta = {
  title: "Account/Passkey settings",
  component: "auth-passkey-settings",
  render: () => html`<auth-passkey-settings></auth-passkey-settings>`,
};
export default meta;
type Story = StoryObj;

const passkeys = { passkey_enabled: true };

export const NoPasskeyYet: Story = {
  ...signedIn({ config: passkeys }),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole("button", { name: "Add a passkey" })).toBeEnabled();
  },
};

export const PasskeySignInOn: Story = {
  ...signedIn({ config: passkeys, user: { passkey_auth_enabled: true } }),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole("button", { name: "Turn off passkey sign-in" })).toBeEnabled();
  },
};

export const DarkPasskeySignInOn: Story = dark({ ...PasskeySignInOn });

/** The server refuses to start a registration (here: it cannot be reached). */
export const RegistrationFailed: Story = {
  ...signedIn({ config: passkeys, answers: { "POST /auth/passkey/initiate-passkey-registration": { json: { error: "Service unavailable" }, status: 503 } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Add a passkey");
    await canvas.findByRole("alert", {}, { timeout: 5000 });
  },
};

/** The project has passkeys off: the section renders nothing. */
export const PasskeysDisabled: Story = { ...signedIn() };

export const Loading: Story = { ...signedIn({ config: passkeys, answers: { "GET /users/me": { pending: true } } }) };
