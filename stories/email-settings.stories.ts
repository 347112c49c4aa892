import { KnownErrors } from "@latchkey/core";
import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, expectAlert, expectBusy, expectLoaded, expectStatus, fill, NETWORK_FAILURE, openDialog, press, pressFor, waitFor, within } from "./support/play.js";
import { dark, serves, signedIn } from "./support/story-app.js";
import { contactChannels } from "./support/story-data.js";

/** `<auth-email-settings>`: the account's addresses, adding one, verifying, making primary, removing. */
const meta: Meta = {
  title: "Account/Email settings",
  component: "auth-email-settings",
  render: () => html`<auth-email-settings></auth-email-settings>`,
};
export default meta;
type Story = StoryObj;

/** A verified primary address and an unverified second one. */
export const TwoAddresses: Story = { ...signedIn(), play: async ({ canvasElement }) => expectLoaded(within(canvasElement)) };

/** The only address that signs in (with the password) can neither stop signing in nor go: the row says why. */
export const OnlyPrimary: Story = {
  ...signedIn({ answers: { "GET /contact-channels": { json: { items: contactChannels().slice(0, 1), is_paginated: false } } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const reason = "This address is your only way to sign in. To remove it or stop using it for sign-in, first add another way to sign in.";
    await expect(await canvas.findByRole("button", { name: "Stop using for sign-in", description: new RegExp(reason) })).toBeDisabled();
    await expect(canvas.getByRole("button", { name: "Remove", description: new RegExp(reason) })).toBeDisabled();
    await expect(canvas.getByText(reason)).toBeVisible();
  },
};

export const DarkTwoAddresses: Story = dark({ ...TwoAddresses });

export const Loading: Story = { ...signedIn({ answers: { "GET /contact-channels": { pending: true } } }) };

export const ListUnavailable: Story = {
  ...signedIn({ answers: { "GET /contact-channels": { json: { error: "Service unavailable" }, status: 503 } } }),
  play: async ({ canvasElement }) => void (await within(canvasElement).findByRole("alert")),
};

export const Adding: Story = {
  ...signedIn({ answers: { "POST /contact-channels": { pending: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expectLoaded(canvas);
    await fill(canvas, { "Add an email address": "ada@analytical.example" });
    await expectBusy(await press(canvas, "Add email"));
  },
};

export const Added: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expectLoaded(canvas);
    await fill(canvas, { "Add an email address": "ada@analytical.example" });
    await press(canvas, "Add email");
    await expectStatus(canvas, "ada@analytical.example has been added.");
  },
};

/** The address already signs someone else in: the error sits under the field. */
export const AddressTaken: Story = {
  ...signedIn({ answers: { "POST /contact-channels": { knownError: new KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse("email", "babbage@example.com") } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expectLoaded(canvas);
    await fill(canvas, { "Add an email address": "babbage@example.com" });
    await press(canvas, "Add email");
    await expectAlert(canvas, "This email address cannot be used for signing in here. Try another address or another way to sign in.");
  },
};

export const VerificationSent: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await pressFor(canvas, "Send verification email", "ada.work@example.org");
    await expectStatus(canvas, "A verification email has been sent to ada.work@example.org.");
  },
};

/** "Remove" asks first, in a modal dialog. */
export const ConfirmRemove: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await pressFor(canvas, "Remove", "ada.work@example.org");
    await openDialog(canvas, "Remove this email address?");
  },
};

/** With a passkey as another way in, "Stop using for sign-in" asks first. */
export const ConfirmStopUsing: Story = {
  ...signedIn({ config: { passkey_enabled: true }, user: { passkey_auth_enabled: true } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(canvas.getByRole("button", { name: "Stop using for sign-in" })).toBeEnabled());
    await pressFor(canvas, "Stop using for sign-in", "ada@example.com");
    await openDialog(canvas, "Stop using this address for sign-in?");
  },
};
export const ActionFailed: Story = {
  ...signedIn({ answers: { "PATCH /contact-channels/me/*": { networkFailure: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await pressFor(canvas, "Make primary", "ada.work@example.org");
    await expectAlert(canvas, NETWORK_FAILURE);
  },
};

export const SignedOut: Story = { ...serves({}) };
