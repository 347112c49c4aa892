import { KnownErrors } from "@latchkey/core";
import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expectAlert, expectBusy, fill, NETWORK_FAILURE, press, within } from "./support/play.js";
import type { StoryServer } from "./support/story-app.js";

/** `<auth-sign-up>`: its states, the errors it shows, and the projects where it cannot sign anyone up. */
const meta: Meta = {
  title: "Elements/Sign up",
  component: "auth-sign-up",
  args: { "no-redirect": true },
  render: (args) => html`<auth-sign-up ?no-redirect=${args["no-redirect"]}></auth-sign-up>`,
};
export default meta;
type Story = StoryObj;

const server = (latchkey: StoryServer) => ({ parameters: { latchkey } });
const newAccount = (password: string, repeat = password) => ({ Email: "ada@example.com", Password: password, "Repeat password": repeat });

export const Default: Story = { ...server({}) };

export const Loading: Story = { ...server({ answers: { "GET /projects/current": { pending: true } } }) };

export const SignUpDisabled: Story = { ...server({ config: { sign_up_enabled: false } }) };

/** Only passwordless methods: new accounts come from the sign-in page. */
export const PasswordlessProject: Story = { ...server({ config: { credential_enabled: false, magic_link_enabled: true } }) };

/** A "Continue with …" button per enabled provider above the form: a new provider account signs up. */
export const WithOAuthProviders: Story = { name: "With OAuth Providers", ...server({ config: { enabled_oauth_providers: [{ id: "google" }, { id: "github" }] } }) };

/** Only providers: their buttons are the way to sign up. */
export const OAuthOnly: Story = { name: "OAuth Only", ...server({ config: { credential_enabled: false, enabled_oauth_providers: [{ id: "github" }, { id: "gitlab" }] } }) };

export const CreatingAccount: Story = {
  ...server({ answers: { "POST /auth/password/sign-up": { pending: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, newAccount("correct horse battery"));
    await expectBusy(await press(canvas, "Create account"));
  },
};

export const EmailTaken: Story = {
  ...server({ answers: { "POST /auth/password/sign-up": { knownError: new KnownErrors.UserWithEmailAlreadyExists("ada@example.com") } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, newAccount("correct horse battery"));
    await press(canvas, "Create account");
    await expectAlert(canvas, "An account with this email already exists.");
  },
};

/** Checked before anything is sent, with the server's own limit (8 characters). */
export const PasswordTooShort: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, newAccount("short"));
    await press(canvas, "Create account");
    await expectAlert(canvas, "The password must be at least 8 characters long.");
  },
};

export const PasswordsDoNotMatch: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, newAccount("correct horse battery", "correct horse staple"));
    await press(canvas, "Create account");
    await expectAlert(canvas, "Passwords do not match.");
  },
};

export const NetworkFailure: Story = {
  ...server({ answers: { "POST /auth/password/sign-up": { networkFailure: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, newAccount("correct horse battery"));
    await press(canvas, "Create account");
    await expectAlert(canvas, NETWORK_FAILURE);
  },
};
