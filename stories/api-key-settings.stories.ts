import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, expectBusy, expectLoaded, fill, openDialog, press, pressFor, within } from "./support/play.js";
import { dark, serves, signedIn } from "./support/story-app.js";
import { createdApiKey } from "./support/story-data.js";

/** `<auth-api-key-settings>`: the user's keys (active, revoked, expired), creating one, revoking one. */
const meta: Meta = {
  title: "Account/API key settings",
  component: "auth-api-key-settings",
  render: () => html`<auth-api-key-settings></auth-api-key-settings>`,
};
export default meta;
type Story = StoryObj;

const allowed = { allow_user_api_keys: true };

/** Active, never-expiring, revoked and expired keys. */
export const SeveralKeys: Story = { ...signedIn({ config: allowed }), play: async ({ canvasElement }) => expectLoaded(within(canvasElement)) };

export const NoKeys: Story = {
  ...signedIn({ config: allowed, answers: { "GET /user-api-keys": { json: { items: [], is_paginated: false } } } }),
  play: async ({ canvasElement }) => void (await within(canvasElement).findByText("You have no API keys.")),
};

export const DarkSeveralKeys: Story = dark({ ...SeveralKeys });

export const Creating: Story = {
  ...signedIn({ config: allowed, answers: { "POST /user-api-keys": { pending: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expectLoaded(canvas);
    await fill(canvas, { Description: "Build server" });
    await expectBusy(await press(canvas, "Create API key"));
  },
};

/** The new key, shown this once in a dialog with a copy button. */
export const Created: Story = {
  ...signedIn({ config: allowed, answers: { "POST /user-api-keys": { json: createdApiKey() } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expectLoaded(canvas);
    await fill(canvas, { Description: "Build server" });
    await press(canvas, "Create API key");
    const dialog = await openDialog(canvas, "Your new API key");
    await expect(dialog.getByRole("textbox", { name: "Build server" })).toHaveValue(createdApiKey().value);
  },
};

export const CreateFailed: Story = {
  ...signedIn({ config: allowed, answers: { "POST /user-api-keys": { networkFailure: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expectLoaded(canvas);
    await fill(canvas, { Description: "Build server" });
    await press(canvas, "Create API key");
    await canvas.findByRole("alert", {}, { timeout: 5000 });
  },
};

export const ConfirmRevoke: Story = {
  ...signedIn({ config: allowed }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await pressFor(canvas, "Revoke", /Deploy script/);
    await openDialog(canvas, "Revoke Deploy script?");
  },
};

/** The project does not let users make API keys. */
export const NotOffered: Story = { ...signedIn() };

export const Loading: Story = { ...signedIn({ config: allowed, answers: { "GET /user-api-keys": { pending: true } } }) };

export const SignedOut: Story = { ...serves({ config: allowed }) };
