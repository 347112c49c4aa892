import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, press, within } from "./support/play.js";
import type { StoryServer } from "./support/story-app.js";

/** `<auth-user-button>`: signed in (with and without the name, menu open), signed out, loading. */
const meta: Meta = {
  title: "Elements/User button",
  component: "auth-user-button",
  args: { "show-name": true },
  render: (args) => html`<div style="display:flex;justify-content:flex-end"><auth-user-button ?show-name=${args["show-name"]}></auth-user-button></div>`,
};
export default meta;
type Story = StoryObj;

const server = (latchkey: StoryServer) => ({ parameters: { latchkey } });

export const SignedIn: Story = { ...server({ signedIn: true }) };

export const AvatarOnly: Story = { ...server({ signedIn: true }), args: { "show-name": false } };

/** No display name: the email stands in for it. */
export const WithoutDisplayName: Story = { ...server({ signedIn: true, user: { display_name: null } }) };

export const MenuOpen: Story = {
  ...server({ signedIn: true }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Ada Lovelace");
    await expect(await canvas.findByRole("menuitem", { name: "Sign out" })).toBeVisible();
  },
};

export const SignedOut: Story = {};

export const Loading: Story = { ...server({ signedIn: true, answers: { "GET /users/me": { pending: true } } }) };

export const AccountUnavailable: Story = { ...server({ signedIn: true, answers: { "GET /users/me": { json: { error: "Service unavailable" }, status: 503 } } }) };
