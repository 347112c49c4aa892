import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expectBusy, expectStatus, fill, openDialog, press, pressFor, within } from "./support/play.js";
import { dark, serves, signedIn } from "./support/story-app.js";
import { TEAM_ID, TEAMS } from "./support/story-data.js";

/** `<auth-team-list-settings>`: the user's teams (selected one marked), leaving one, creating one when allowed. */
const meta: Meta = {
  title: "Account/Team list settings",
  component: "auth-team-list-settings",
  render: () => html`<auth-team-list-settings></auth-team-list-settings>`,
};
export default meta;
type Story = StoryObj;

const teams = { "GET /teams": { json: { items: TEAMS, is_paginated: false } } } as const;
const creation = { client_team_creation_enabled: true };

export const ThreeTeams: Story = { ...signedIn({ user: { selected_team_id: TEAM_ID }, answers: teams }) };

export const CanCreate: Story = { ...signedIn({ config: creation, user: { selected_team_id: TEAM_ID }, answers: teams }) };

export const DarkCanCreate: Story = dark({ ...CanCreate });

export const NoTeams: Story = { ...signedIn({ config: creation }) };

export const Creating: Story = {
  ...signedIn({ config: creation, answers: { ...teams, "POST /teams": { pending: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { "New team name": "Lovelace Labs" });
    await expectBusy(await press(canvas, "Create team"));
  },
};

export const Created: Story = {
  ...signedIn({ config: creation, answers: { ...teams, "POST /teams": { json: { ...TEAMS[0]!, id: "4d5e6f70-0000-4000-8000-000000000009", display_name: "Lovelace Labs" } } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { "New team name": "Lovelace Labs" });
    await press(canvas, "Create team");
    await expectStatus(canvas, "The team Lovelace Labs has been created.");
  },
};

export const CreateFailed: Story = {
  ...signedIn({ config: creation, answers: { ...teams, "POST /teams": { networkFailure: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { "New team name": "Lovelace Labs" });
    await press(canvas, "Create team");
    await canvas.findByRole("alert", {}, { timeout: 5000 });
  },
};

export const ConfirmLeave: Story = {
  ...signedIn({ user: { selected_team_id: TEAM_ID }, answers: teams }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await pressFor(canvas, "Leave", "Difference Club");
    await openDialog(canvas, "Leave Difference Club?");
  },
};

export const Loading: Story = { ...signedIn({ answers: { "GET /teams": { pending: true } } }) };

export const ListUnavailable: Story = {
  ...signedIn({ answers: { "GET /teams": { json: { error: "Service unavailable" }, status: 503 } } }),
  play: async ({ canvasElement }) => void (await within(canvasElement).findByRole("alert")),
};

export const SignedOut: Story = { ...serves({}) };
