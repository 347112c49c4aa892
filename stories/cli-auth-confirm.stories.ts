import { KnownErrors } from "@latchkey/core";
import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, expectAlert, expectStatus, press, within } from "./support/play.js";
import { dark, serves, signedIn } from "./support/story-app.js";

/** `<auth-cli-auth-confirm>`: a command-line tool asks to sign in as the user, who confirms (or not). */
const meta: Meta = {
  title: "Elements/CLI login confirmation",
  component: "auth-cli-auth-confirm",
  args: { "login-code": "story-login-code" },
  render: (args) => html`<auth-cli-auth-confirm login-code=${args["login-code"]}></auth-cli-auth-confirm>`,
};
export default meta;
type Story = StoryObj;

export const Asking: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText(/asks to act as ada@example.com/)).toBeVisible();
  },
};

export const DarkAsking: Story = dark({ ...Asking });

export const Confirmed: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Confirm");
    await expectStatus(canvas, "The command-line tool is signed in.");
  },
};

export const Cancelled: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Cancel");
    await expectStatus(canvas, "Nothing was shared with the command-line tool.");
  },
};

export const Confirming: Story = {
  ...signedIn({ answers: { "POST /auth/cli/complete": { pending: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const button = await press(canvas, "Confirm");
    await expect(button).toHaveAttribute("aria-busy", "true");
  },
};

/** The login was started too long ago. */
export const Expired: Story = {
  ...signedIn({ answers: { "POST /auth/cli/complete": { knownError: new KnownErrors.CliAuthExpiredError() } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Confirm");
    await expectAlert(canvas, "CLI authentication request expired. Please try again.");
  },
};

export const AlreadyUsed: Story = {
  ...signedIn({ answers: { "POST /auth/cli/complete": { knownError: new KnownErrors.CliAuthUsedError() } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Confirm");
    await expectAlert(canvas, "This authentication token has already been used.");
  },
};

/** Signed out: sign in first, then come back here. */
export const SignedOut: Story = {
  ...serves({}),
  play: async ({ canvasElement }) => void (await within(canvasElement).findByRole("link", { name: "Sign in" })),
};

export const NoLoginCode: Story = { ...signedIn(), args: { "login-code": "" } };

export const Loading: Story = { ...signedIn({ answers: { "GET /users/me": { pending: true } } }) };
