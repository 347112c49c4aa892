import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html, nothing } from "lit";
import { expect, expectLoaded, expectStatus, fill, openDialog, press, within } from "./support/play.js";
import { dark, serves, signedIn, type StoryServer } from "./support/story-app.js";
import { ADMIN_PERMISSIONS, MEMBER_PERMISSIONS, TEAM_ID, TEAMS, teamInvitations, teamMemberRoles, teamMembers, teamPermissions } from "./support/story-data.js";

/**
 * `<auth-team-settings>`: the selected team's profile, members, invitations and the way out. Each part shows
 * only with the permission it needs, so there are stories for a team admin and for a plain member.
 */
const meta: Meta = {
  title: "Teams/Team settings",
  component: "auth-team-settings",
  args: { "team-id": "" },
  // Without `team-id` the element shows the user's selected team.
  render: (args) => html`<auth-team-settings team-id=${args["team-id"] || nothing}></auth-team-settings>`,
};
export default meta;
type Story = StoryObj;

/** A member of the team with these permissions, the team selected. */
function memberWith(permissions: string[], answers: StoryServer["answers"] = {}) {
  return signedIn({
    user: { selected_team_id: TEAM_ID },
    answers: {
      "GET /teams": { json: { items: TEAMS, is_paginated: false } },
      "GET /team-permissions": { json: { items: teamPermissions(permissions), is_paginated: false } },
      "GET /team-member-profiles": { json: { items: teamMembers(), is_paginated: false } },
      "GET /team-invitations": { json: { items: teamInvitations(), is_paginated: false } },
      "POST /team-invitations/send-code": { json: { success: true, id: "5e6f7081-0000-4000-8000-000000000009" } },
      ...answers,
    },
  });
}

const loaded = async ({ canvasElement }: { canvasElement: HTMLElement }) => expectLoaded(within(canvasElement));

/** Every permission: rename, image, members with remove buttons, invitations, delete. */
export const Admin: Story = { ...memberWith(ADMIN_PERMISSIONS), play: loaded };

export const DarkAdmin: Story = dark({ ...Admin });

/** Only `$read_members`: the members list and "Leave team", nothing to edit. */
export const PlainMember: Story = {
  ...memberWith(MEMBER_PERMISSIONS),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole("heading", { name: "Members" });
    await expect(canvas.queryByRole("heading", { name: "Invite a member" })).toBeNull();
    await expect(canvas.queryByRole("button", { name: "Delete team" })).toBeNull();
  },
};

/** May invite but not remove (a custom role): invitations show, remove buttons do not. */
export const CanInviteOnly: Story = { ...memberWith(["$read_members", "$invite_members"]), play: loaded };

/** No permission at all: only the way out. */
export const NoPermissions: Story = { ...memberWith([]), play: loaded };

export const NoPendingInvitations: Story = {
  ...memberWith(ADMIN_PERMISSIONS, { "GET /team-invitations": { json: { items: [], is_paginated: false } } }),
  play: loaded,
};

export const InvitationSent: Story = {
  ...memberWith(ADMIN_PERMISSIONS),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { Email: "mary.somerville@example.com" });
    await press(canvas, "Send invitation");
    await expectStatus(canvas, "Invitation sent to mary.somerville@example.com.");
  },
};

/** The user is the team's only admin while others remain: Leave is held back, and the reason shown. */
export const OnlyAdmin: Story = {
  ...memberWith(ADMIN_PERMISSIONS, { "GET /team-member-roles": { json: { items: teamMemberRoles({ onlyAdmin: true }), is_paginated: false } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole("button", { name: "Leave team" })).toBeDisabled();
  },
};

export const ConfirmRemoveMember: Story = {
  ...memberWith(ADMIN_PERMISSIONS),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Remove Charles Babbage");
    await openDialog(canvas, "Remove Charles Babbage?");
  },
};

export const ConfirmDeleteTeam: Story = {
  ...memberWith(ADMIN_PERMISSIONS),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await press(canvas, "Delete team");
    await openDialog(canvas, "Delete Analytical Engines?");
  },
};

/** The team in `team-id` is not one of the user's. */
export const NotAMember: Story = {
  ...memberWith(ADMIN_PERMISSIONS, { "GET /teams": { json: { items: TEAMS.slice(1), is_paginated: false } } }),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole("alert")).toHaveTextContent("You are not a member of this team.");
  },
};

/** A team named by `team-id` rather than the selected one. */
export const ByTeamId: Story = {
  name: "By Team ID",
  ...memberWith(MEMBER_PERMISSIONS),
  args: { "team-id": TEAMS[1]!.id },
  play: async ({ canvasElement }) => void (await within(canvasElement).findByRole("heading", { name: "Difference Club" })),
};

export const NoTeamSelected: Story = { ...signedIn() };

export const Loading: Story = { ...memberWith(ADMIN_PERMISSIONS, { "GET /team-permissions": { pending: true } }) };

export const SignedOut: Story = { ...serves({}) };
