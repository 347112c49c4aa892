import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expectAlert, expectBusy, expectStatus, fill, NETWORK_FAILURE, press, userEvent, within } from "./support/play.js";
import { dark, serves, signedIn } from "./support/story-app.js";

/** `<auth-profile-settings>`: display name and avatar, saved, saving, refused. */
const meta: Meta = {
  title: "Account/Profile settings",
  component: "auth-profile-settings",
  render: () => html`<auth-profile-settings></auth-profile-settings>`,
};
export default meta;
type Story = StoryObj;

/** A small square picture as a data URL, the way the element stores avatars. */
const AVATAR =
  "data:image/svg+xml;base64," +
  btoa(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#3b5bdb"/><circle cx="32" cy="26" r="12" fill="#fff"/><rect x="14" y="42" width="36" height="16" rx="8" fill="#fff"/></svg>`);

export const Default: Story = { ...signedIn() };

export const WithAvatar: Story = { ...signedIn({ user: { profile_image_url: AVATAR } }) };

export const WithoutDisplayName: Story = { ...signedIn({ user: { display_name: null } }) };

export const Saved: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { "Display name": "Augusta Ada King" });
    await press(canvas, "Save");
    await expectStatus(canvas, "Your name has been saved.");
  },
};

export const Saving: Story = {
  ...signedIn({ answers: { "PATCH /users/me": { pending: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { "Display name": "Augusta Ada King" });
    await expectBusy(await press(canvas, "Save"));
  },
};

export const SaveFailed: Story = {
  ...signedIn({ answers: { "PATCH /users/me": { networkFailure: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { "Display name": "Augusta Ada King" });
    await press(canvas, "Save");
    await expectAlert(canvas, NETWORK_FAILURE);
  },
};

/** A file that is not a picture: it cannot be decoded, and nothing is sent. */
export const UnreadablePicture: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const input = await canvas.findByLabelText("Upload a picture");
    await userEvent.upload(input, new File(["not a picture"], "notes.png", { type: "image/png" }));
    await expectAlert(canvas, "This file cannot be read as a picture. Choose a PNG, JPEG, WebP or GIF image.");
  },
};

export const DarkWithAvatar: Story = dark({ ...signedIn({ user: { profile_image_url: AVATAR } }) });

export const SignedOut: Story = { ...serves({}) };

export const Loading: Story = { ...signedIn({ answers: { "GET /users/me": { pending: true } } }) };
