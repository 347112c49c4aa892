import { KnownErrors } from "@latchkey/core";
import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, expectAlert, expectStatus, press, within } from "./support/play.js";
import { dark, serves, signedIn, type StoryServer } from "./support/story-app.js";
import { TEAM_ID } from "./support/story-data.js";

/** `<auth-team-invitation>`: the page an invitation mail links to: which team, accept or decline. */
const meta: Meta = {
  title: "Teams/Team invitation",
  component: "auth-team-invitation",
  args: { code: "story-invitation-code" },
  render: (args) => html`<auth-team-invitation code=${args.code}></auth-team-invitation>`,
};
export default meta;
type Story = StoryObj;

const details = { json: { team_id: TEAM_ID, team_display_name: "Analytical Engines" } };

function invited(answers: StoryServer["answers"] = {}) {
  return signedIn({ answers: { "POST /team-invitations/accept/details": details, "POST /team-invitations/accept": { json: {} }, ...answers } });
}

const detailsError = (knownError: InstanceType<typeof KnownErrors.VerificationCodeNotFound>) => invited({ "POST /team-invitations/accept/details": { knownError } });

export const Invited: Story = {
  ...invited(),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText("You have been invited to join Analytical Engines.")).toBeVisible();
  },
};

export const DarkInvited: Story = dark({ ...Invited });

export const Joined: Story = {
  ...invited(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Accept");
    await expectStatus(canvas, "You have joined Analytical Engines.");
  },
};

export const Joining: Story = {
  ...invited({ "POST /team-invitations/accept": { pending: true } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Accept");
    await canvas.findByRole("button", { name: "Joining…" });
  },
};

export const Declined: Story = {
  ...invited(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Decline");
    await expectStatus(canvas, "You have declined the invitation.");
  },
};

export const Checking: Story = { ...invited({ "POST /team-invitations/accept/details": { pending: true } }) };

export const InvalidLink: Story = {
  ...detailsError(new KnownErrors.VerificationCodeNotFound()),
  play: async ({ canvasElement }) => expectAlert(within(canvasElement), "This invitation link is not valid. Ask for a new invitation."),
};

export const Expired: Story = {
  ...detailsError(new KnownErrors.VerificationCodeExpired()),
  play: async ({ canvasElement }) => expectAlert(within(canvasElement), "This invitation has expired. Ask for a new invitation."),
};

export const AlreadyUsed: Story = {
  ...detailsError(new KnownErrors.VerificationCodeAlreadyUsed()),
  play: async ({ canvasElement }) => expectAlert(within(canvasElement), "This invitation has already been used."),
};

export const NoCode: Story = {
  ...invited(),
  args: { code: "" },
  play: async ({ canvasElement }) => expectAlert(within(canvasElement), "This link has no invitation code. Ask for a new invitation."),
};

/** Signed out: sign in (or sign up) first, then come back to the invitation. */
export const SignedOut: Story = {
  ...serves({}),
  play: async ({ canvasElement }) => void (await within(canvasElement).findByRole("link", { name: "Sign in to continue" })),
};
