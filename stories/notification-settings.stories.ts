import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, expectLoaded, expectStatus, userEvent, within } from "./support/play.js";
import { dark, serves, signedIn } from "./support/story-app.js";
import { notificationPreferences } from "./support/story-data.js";

/** `<auth-notification-settings>`: which mail categories the user gets; transactional mail is always sent. */
const meta: Meta = {
  title: "Account/Notification settings",
  component: "auth-notification-settings",
  render: () => html`<auth-notification-settings></auth-notification-settings>`,
};
export default meta;
type Story = StoryObj;

export const AllOn: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole("checkbox", { name: /Transactional/ })).toBeDisabled();
  },
};

export const MarketingOff: Story = {
  ...signedIn({ answers: { "GET /emails/notification-preference/me": { json: { items: notificationPreferences(false), is_paginated: false } } } }),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole("checkbox", { name: /Marketing/ })).not.toBeChecked();
  },
};

export const DarkAllOn: Story = dark({ ...AllOn });

export const Saved: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole("checkbox", { name: /Marketing/ }));
    await expectStatus(canvas, "Your choice has been saved.");
  },
};

export const SaveFailed: Story = {
  ...signedIn({ answers: { "PATCH /emails/notification-preference/me/*": { networkFailure: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole("checkbox", { name: /Marketing/ }));
    await canvas.findByRole("alert", {}, { timeout: 5000 });
  },
};

export const Loading: Story = { ...signedIn({ answers: { "GET /emails/notification-preference/me": { pending: true } } }) };

export const ListUnavailable: Story = {
  ...signedIn({ answers: { "GET /emails/notification-preference/me": { json: { error: "Service unavailable" }, status: 503 } } }),
  play: async ({ canvasElement }) => void (await within(canvasElement).findByRole("alert")),
};

export const SignedOut: Story = { ...serves({}), play: async ({ canvasElement }) => void (await expectLoaded(within(canvasElement))) };
