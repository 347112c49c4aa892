import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, expectLoaded, expectNoSidewaysScroll, openAccountTab, press, userEvent, within } from "./support/play.js";
import { signedIn } from "./support/story-app.js";
import { ADMIN_PERMISSIONS, contactChannels, TEAM_ID, TEAMS, teamInvitations, teamMembers, teamPermissions } from "./support/story-data.js";

/**
 * Names as long as people and teams really have: a display name and a team name of over 200 characters, and
 * an email address of almost 190 with no space to break at. Each story checks the name is shown and the page
 * does not scroll sideways: the text wraps inside the widget instead of widening it.
 */
const meta: Meta = {
  title: "Long names",
  tags: ["!autodocs"],
};
export default meta;
type Story = StoryObj;
type Args = { canvasElement: HTMLElement };

const LONG_NAME =
  "Augusta Ada King, Countess of Lovelace, Analyst and Metaphysician, Enchantress of Numbers, Author of the Notes on the Analytical Engine of Charles Babbage, First Programmer of a General Purpose Machine";
const LONG_TEAM =
  "The Royal Society for the Promotion of Analytical Engines, Difference Engines, Jacquard Looms, Mechanical Calculation and the Poetical Science of Numbers, Symbols and Operations, London and Kent Chapter";
const LONG_EMAIL =
  "augusta.ada.king.countess.of.lovelace.analyst.and.metaphysician@department-of-mechanical-calculation.analytical-engine-society.royal-institution-of-great-britain.city-of-london.example.org";

const teams = [{ ...TEAMS[0]!, display_name: LONG_TEAM }, ...TEAMS.slice(1)];
const longAccount = signedIn({
  config: { passkey_enabled: true, allow_user_api_keys: true, client_user_deletion_enabled: true, client_team_creation_enabled: true },
  user: { display_name: LONG_NAME, primary_email: LONG_EMAIL, selected_team_id: TEAM_ID },
  answers: {
    "GET /teams": { json: { items: teams, is_paginated: false } },
    "GET /contact-channels": { json: { items: [{ ...contactChannels()[0]!, value: LONG_EMAIL }, contactChannels()[1]!], is_paginated: false } },
    "GET /team-permissions": { json: { items: teamPermissions(ADMIN_PERMISSIONS), is_paginated: false } },
    "GET /team-member-profiles": { json: { items: [{ ...teamMembers()[0]!, display_name: LONG_NAME }, ...teamMembers().slice(1)], is_paginated: false } },
    "GET /team-invitations": { json: { items: [{ ...teamInvitations()[0]!, recipient_email: LONG_EMAIL, team_display_name: LONG_TEAM }], is_paginated: false } },
    "POST /team-invitations/accept/details": { json: { team_id: TEAM_ID, team_display_name: LONG_TEAM } },
  },
});

export const UserButtonMenu: Story = {
  ...longAccount,
  render: () => html`<div style="display:flex;justify-content:flex-end"><auth-user-button show-name></auth-user-button></div>`,
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await press(canvas, LONG_NAME);
    await expect(await canvas.findByRole("menuitem", { name: "Sign out" })).toBeVisible();
    await expectNoSidewaysScroll();
  },
};

export const AccountSettings: Story = {
  ...longAccount,
  render: () => html`<auth-account-settings></auth-account-settings>`,
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    // The tab an earlier story chose stays in the frame's address (#danger-zone…): open the profile tab.
    await openAccountTab(canvasElement, "Profile");
    await expect(await canvas.findByLabelText("Display name")).toHaveValue(LONG_NAME);
    await expect(await canvas.findByText(LONG_EMAIL)).toBeVisible();
    await openAccountTab(canvasElement, "Teams");
    await expect(await canvas.findByText(LONG_TEAM)).toBeVisible();
    await expectLoaded(canvas);
    await expectNoSidewaysScroll();
  },
};

export const TeamSwitcherOpen: Story = {
  ...longAccount,
  render: () => html`<auth-team-switcher allow-create></auth-team-switcher>`,
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole("button", { name: new RegExp(LONG_TEAM.slice(0, 40)) }));
    await expect(await canvas.findByRole("option", { name: new RegExp(LONG_TEAM.slice(0, 40)) })).toBeVisible();
    await expectNoSidewaysScroll();
  },
};

export const TeamSettings: Story = {
  ...longAccount,
  render: () => html`<auth-team-settings></auth-team-settings>`,
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole("heading", { name: LONG_TEAM })).toBeVisible();
    await expectLoaded(canvas);
    await expect(await canvas.findByText(LONG_NAME)).toBeVisible();
    await expectNoSidewaysScroll();
  },
};

export const TeamInvitation: Story = {
  ...longAccount,
  render: () => html`<auth-team-invitation code="story-invitation-code"></auth-team-invitation>`,
  play: async ({ canvasElement }: Args) => {
    await expect(await within(canvasElement).findByText(`You have been invited to join ${LONG_TEAM}.`)).toBeVisible();
    await expectNoSidewaysScroll();
  },
};

/** Someone already signed in opens the sign-in page: it says who, by email address. */
export const SignedInAlready: Story = {
  ...longAccount,
  render: () => html`<auth-sign-in no-redirect></auth-sign-in>`,
  play: async ({ canvasElement }: Args) => {
    await expect(await within(canvasElement).findByText(`You are signed in as ${LONG_EMAIL}.`)).toBeVisible();
    await expectNoSidewaysScroll();
  },
};
