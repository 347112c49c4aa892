import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, expectLoaded, expectNoSidewaysScroll, openAccountTab, press, userEvent, within } from "./support/play.js";
import { serves, signedIn } from "./support/story-app.js";
import { ADMIN_PERMISSIONS, TEAM_ID, TEAMS, teamInvitations, teamMembers, teamPermissions } from "./support/story-data.js";

/**
 * The elements on a small phone: Storybook's "Small mobile" viewport (320 × 568 CSS pixels), the narrowest
 * screen the widgets are made for. Each story checks the page does not scroll sideways at that width.
 */
const meta: Meta = {
  title: "Mobile (small phone)",
  tags: ["!autodocs"],
  globals: { viewport: { value: "mobile1", isRotated: false } },
};
export default meta;
type Story = StoryObj;
type Args = { canvasElement: HTMLElement };

const everything = { magic_link_enabled: true, passkey_enabled: true, allow_user_api_keys: true, client_user_deletion_enabled: true, client_team_creation_enabled: true };
const account = signedIn({
  config: everything,
  user: { selected_team_id: TEAM_ID },
  answers: {
    "GET /teams": { json: { items: TEAMS, is_paginated: false } },
    "GET /team-permissions": { json: { items: teamPermissions(ADMIN_PERMISSIONS), is_paginated: false } },
    "GET /team-member-profiles": { json: { items: teamMembers(), is_paginated: false } },
    "GET /team-invitations": { json: { items: teamInvitations(), is_paginated: false } },
  },
});

export const SignIn: Story = {
  ...serves({ config: { ...everything, enabled_oauth_providers: [{ id: "google" }, { id: "github" }, { id: "microsoft" }] } }),
  render: () => html`<auth-sign-in no-redirect></auth-sign-in>`,
  play: async ({ canvasElement }: Args) => {
    await within(canvasElement).findByRole("button", { name: "Sign in with a passkey" });
    await expectNoSidewaysScroll();
  },
};

export const SignUp: Story = {
  ...serves({ config: { enabled_oauth_providers: [{ id: "google" }, { id: "github" }] } }),
  render: () => html`<auth-sign-up no-redirect></auth-sign-up>`,
  play: async ({ canvasElement }: Args) => {
    await within(canvasElement).findByRole("button", { name: "Create account" });
    await expectNoSidewaysScroll();
  },
};

export const UserButtonMenu: Story = {
  ...account,
  render: () => html`<div style="display:flex;justify-content:flex-end"><auth-user-button show-name></auth-user-button></div>`,
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await press(canvas, "Ada Lovelace");
    await expect(await canvas.findByRole("menuitem", { name: "Sign out" })).toBeVisible();
    await expectNoSidewaysScroll();
  },
};

export const AccountSettings: Story = {
  ...account,
  render: () => html`<auth-account-settings></auth-account-settings>`,
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await openAccountTab(canvasElement, "Danger zone");
    await canvas.findByRole("heading", { name: "Danger zone", level: 3 });
    await expectLoaded(canvas);
    await expectNoSidewaysScroll();
  },
};

export const TeamSwitcherOpen: Story = {
  ...account,
  render: () => html`<auth-team-switcher allow-create></auth-team-switcher>`,
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole("button", { name: /Analytical Engines/ }));
    await expect(await canvas.findByRole("listbox", { name: "Teams" })).toBeVisible();
    await expectNoSidewaysScroll();
  },
};

export const TeamSettings: Story = {
  ...account,
  render: () => html`<auth-team-settings></auth-team-settings>`,
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await canvas.findByRole("heading", { name: "Members" });
    await expectLoaded(canvas);
    await expectNoSidewaysScroll();
  },
};
