import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, openDialog, userEvent, within } from "./support/play.js";
import { dark, serves, signedIn } from "./support/story-app.js";
import { TEAM_ID, TEAMS } from "./support/story-data.js";

/** `<auth-team-switcher>`: the selected team, a keyboard-navigable list of the user's teams, "Create team…". */
const meta: Meta = {
  title: "Teams/Team switcher",
  component: "auth-team-switcher",
  args: { "allow-create": true },
  render: (args) => html`<auth-team-switcher ?allow-create=${args["allow-create"]}></auth-team-switcher>`,
};
export default meta;
type Story = StoryObj;

const teams = { "GET /teams": { json: { items: TEAMS, is_paginated: false } } } as const;
const creation = { client_team_creation_enabled: true };

export const TeamSelected: Story = { ...signedIn({ user: { selected_team_id: TEAM_ID }, answers: teams }) };

export const NoTeamSelected: Story = { ...signedIn({ answers: teams }) };

/** Opened with the keyboard: the list shows, the selected team is the active option. */
export const ListOpen: Story = {
  ...signedIn({ config: creation, user: { selected_team_id: TEAM_ID }, answers: teams }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    (await canvas.findByRole("button", { name: /Analytical Engines/ })).focus();
    await userEvent.keyboard("{ArrowDown}");
    await expect(await canvas.findByRole("listbox", { name: "Teams" })).toBeVisible();
  },
};

export const DarkListOpen: Story = dark({ ...ListOpen });

/** The project lets users create teams, and the page asked for the entry (`allow-create`). */
export const CreateDialog: Story = {
  ...signedIn({ config: creation, user: { selected_team_id: TEAM_ID }, answers: teams }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole("button", { name: /Analytical Engines/ }));
    await userEvent.click(await canvas.findByRole("option", { name: "Create team…" }));
    await openDialog(canvas, "Create a team");
  },
};

export const NoTeamsYet: Story = {
  ...signedIn(),
  args: { "allow-create": false },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole("button", { name: /No team selected/ }));
    await expect(await canvas.findByText("You are not in any team yet.")).toBeVisible();
  },
};

export const Loading: Story = { ...signedIn({ answers: { "GET /teams": { pending: true } } }) };

export const TeamsUnavailable: Story = {
  ...signedIn({ answers: { "GET /teams": { json: { error: "Service unavailable" }, status: 503 } } }),
  play: async ({ canvasElement }) => void (await within(canvasElement).findByRole("alert")),
};

/** Signed out, the switcher shows nothing. */
export const SignedOut: Story = { ...serves({}) };

/** Another team chosen with the keyboard: the button shows it (and `auth-team-changed` fires). */
export const Switched: Story = {
  ...signedIn({ user: { selected_team_id: TEAM_ID }, answers: teams }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    (await canvas.findByRole("button", { name: /Analytical Engines/ })).focus();
    await userEvent.keyboard("{ArrowDown}");
    await canvas.findByRole("listbox", { name: "Teams" });
    await userEvent.keyboard("{ArrowDown}{Enter}");
    await expect(await canvas.findByRole("button", { name: /Difference Club/ })).toBeVisible();
  },
};
