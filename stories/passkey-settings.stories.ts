import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, openDialog, press, within } from "./support/play.js";
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

/** Turning passkey sign-in off asks first, in a modal dialog. */
export const ConfirmTurnOff: Story = {
  ...signedIn({ config: passkeys, user: { passkey_auth_enabled: true } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Turn off passkey sign-in");
    await openDialog(canvas, "Turn off passkey sign-in?");
  },
};

/** Passkeys are the only way in (no password): passkey sign-in cannot be turned off, and the section says why. */
export const OnlyWayIn: Story = {
  ...signedIn({ config: passkeys, user: { passkey_auth_enabled: true, has_password: false } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const reason = "Your passkey is your only way to sign in. To turn passkey sign-in off, first add another way to sign in.";
    await expect(await canvas.findByRole("button", { name: "Turn off passkey sign-in", description: reason })).toBeDisabled();
    await expect(canvas.getByText(reason)).toBeVisible();
  },
};

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
