import { KnownErrors } from "@latchkey/core";
import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, expectAlert, expectBusy, fill, NETWORK_FAILURE, press, within } from "./support/play.js";
import type { StoryServer } from "./support/story-app.js";

/** `<auth-sign-in>`: one story per set of enabled methods, per loading state and per error it shows. */
const meta: Meta = {
  title: "Elements/Sign in",
  component: "auth-sign-in",
  args: { "no-redirect": true },
  render: (args) => html`<auth-sign-in ?no-redirect=${args["no-redirect"]}></auth-sign-in>`,
};
export default meta;
type Story = StoryObj;

const server = (latchkey: StoryServer) => ({ parameters: { latchkey } });
const credentials = { Email: "ada@example.com", Password: "correct horse battery" };

export const PasswordOnly: Story = { ...server({}) };

export const MagicLinkOnly: Story = { ...server({ config: { credential_enabled: false, magic_link_enabled: true } }) };

export const PasswordAndMagicLink: Story = { ...server({ config: { magic_link_enabled: true } }) };

export const WithOAuthProviders: Story = {
  name: "With OAuth Providers",
  ...server({ config: { magic_link_enabled: true, enabled_oauth_providers: [{ id: "google" }, { id: "github" }, { id: "microsoft" }] } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    for (const provider of ["Google", "GitHub", "Microsoft"]) await expect(await canvas.findByRole("button", { name: `Continue with ${provider}` })).toBeVisible();
  },
};

/** Passkeys on: a passkey button, and the email field offers the browser's saved passkeys (`username webauthn`). */
export const WithPasskeys: Story = {
  ...server({ config: { passkey_enabled: true } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
    await expect(await canvas.findByLabelText("Email", { exact: true })).toHaveAttribute("autocomplete", "username webauthn");
  },
};

export const WithPasskeysAndGoogle: Story = {
  ...server({ config: { passkey_enabled: true, enabled_oauth_providers: [{ id: "google" }] } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
    await expect(await canvas.findByRole("button", { name: "Continue with Google" })).toBeVisible();
  },
};

/** Every method at once: password, emailed code, passkeys and three OAuth providers. */
export const EveryMethod: Story = {
  ...server({ config: { magic_link_enabled: true, passkey_enabled: true, enabled_oauth_providers: [{ id: "google" }, { id: "github" }, { id: "microsoft" }] } }),
};

export const OAuthOnly: Story = { name: "OAuth Only", ...server({ config: { credential_enabled: false, enabled_oauth_providers: [{ id: "github" }] } }) };

export const SignUpDisabled: Story = { ...server({ config: { sign_up_enabled: false } }) };

export const NoMethodEnabled: Story = { ...server({ config: { credential_enabled: false } }) };

/** The project's configuration has not arrived yet. */
export const Loading: Story = { ...server({ answers: { "GET /projects/current": { pending: true } } }) };

/** The project's configuration could not be loaded. */
export const ProjectUnavailable: Story = { ...server({ answers: { "GET /projects/current": { json: { error: "Service unavailable" }, status: 503 } } }) };

/** Submitted, waiting for the server: the button shows it is busy. */
export const SigningIn: Story = {
  ...server({ answers: { "POST /auth/password/sign-in": { pending: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, credentials);
    await expectBusy(await press(canvas, "Sign in"));
  },
};

export const WrongPassword: Story = {
  ...server({ answers: { "POST /auth/password/sign-in": { knownError: new KnownErrors.EmailPasswordMismatch() } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, credentials);
    await press(canvas, "Sign in");
    await expectAlert(canvas, "Wrong email or password.");
  },
};

export const NetworkFailure: Story = {
  ...server({ answers: { "POST /auth/password/sign-in": { networkFailure: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, credentials);
    await press(canvas, "Sign in");
    await expectAlert(canvas, NETWORK_FAILURE);
  },
};

/** After "Send sign-in code": the step where the mailed code is typed. */
export const CodeStep: Story = {
  ...server({ config: { credential_enabled: false, magic_link_enabled: true } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { Email: "ada@example.com" });
    await press(canvas, "Send sign-in code");
    await expect(await canvas.findByRole("heading", { name: "Check your email" })).toBeVisible();
  },
};

export const WrongCode: Story = {
  ...server({
    config: { credential_enabled: false, magic_link_enabled: true },
    answers: { "POST /auth/otp/sign-in": { knownError: new KnownErrors.VerificationCodeNotFound() } },
  }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { Email: "ada@example.com" });
    await press(canvas, "Send sign-in code");
    await fill(canvas, { Code: "ABC123" });
    await press(canvas, "Sign in");
    await expectAlert(canvas, "This code is not valid. Check it or ask for a new one.");
  },
};
