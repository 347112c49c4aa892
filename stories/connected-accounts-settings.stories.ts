import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, expectLoaded, openDialog, pressFor, within } from "./support/play.js";
import { dark, signedIn } from "./support/story-app.js";
import { oauthLinks } from "./support/story-data.js";

/** `<auth-connected-accounts-settings>`: provider accounts linked to the user, which signs in, unlinking, linking another. */
const meta: Meta = {
  title: "Account/Connected accounts",
  component: "auth-connected-accounts-settings",
  render: () => html`<auth-connected-accounts-settings></auth-connected-accounts-settings>`,
};
export default meta;
type Story = StoryObj;

const providers = { enabled_oauth_providers: [{ id: "github" as const }, { id: "gitlab" as const }, { id: "google" as const }] };

export const TwoAccounts: Story = {
  ...signedIn({ config: providers }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expectLoaded(canvas);
    await canvas.findByText("ada.lovelace@example.org");
    await expect(canvas.getByRole("button", { name: "Connect Google" })).toBeTruthy();
  },
};

export const NoneConnected: Story = {
  ...signedIn({ config: providers, answers: { "GET /oauth-providers": { json: { items: [], is_paginated: false } } } }),
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByText("No accounts are connected.");
  },
};

/** A user whose only way in is GitHub cannot disconnect it or stop signing in with it: the section says why. */
export const OnlyWayIn: Story = {
  ...signedIn({
    config: providers,
    user: { has_password: false },
    answers: { "GET /oauth-providers": { json: { items: oauthLinks().slice(0, 1), is_paginated: false } } },
  }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const reason = "GitHub is your only way to sign in. To disconnect it or stop signing in with it, first add another way to sign in.";
    await expect(await canvas.findByRole("button", { name: "Disconnect", description: new RegExp(reason) })).toBeDisabled();
    await expect(canvas.getByRole("checkbox", { name: "Use to sign in" })).toBeDisabled();
    await expect(canvas.getByText(reason)).toBeVisible();
  },
};

/** Disconnecting asks first, in a modal dialog. */
export const ConfirmDisconnect: Story = {
  ...signedIn({ config: providers }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await pressFor(canvas, "Disconnect", /GitHub/);
    await openDialog(canvas, "Disconnect GitHub?");
  },
};

export const DarkTwoAccounts: Story = dark({ ...TwoAccounts });
