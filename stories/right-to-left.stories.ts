import { KnownErrors } from "@latchkey/core";
import { MFA_ATTEMPT_CODE_KEY } from "@latchkey/elements";
import { msg } from "@lit/localize";
import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, expectAlert, fill, openAccountTab, openDialog, press, userEvent, within } from "./support/play.js";
import { dark, serves, signedIn } from "./support/story-app.js";
import { ADMIN_PERMISSIONS, TEAM_ID, TEAMS, teamInvitations, teamMembers, teamPermissions } from "./support/story-data.js";

/**
 * The right-to-left story set: the elements in Arabic (`parameters.locale`, which the preview's loader applies
 * with `setLocale("ar")` before the render, fetching only ar.json). Each element lays itself out right to left
 * (`dir="rtl"`); the play functions find labels through `msg()`, so they read what the Arabic page shows.
 */
const meta: Meta = {
  title: "Right to left (Arabic)",
  // A set across elements, not an element: no Docs page (its stories would all switch the page to Arabic).
  tags: ["!autodocs"],
  parameters: { locale: "ar" },
};
export default meta;
type Story = StoryObj;

type Args = { canvasElement: HTMLElement };

/** The element lays itself out right to left once the Arabic messages are in. */
async function expectRightToLeft(canvasElement: HTMLElement, tag: string): Promise<void> {
  const element = canvasElement.querySelector(tag);
  await expect(element).not.toBeNull();
  await expect(element).toHaveAttribute("dir", "rtl");
}

const everything = { passkey_enabled: true, allow_user_api_keys: true, client_user_deletion_enabled: true, client_team_creation_enabled: true };
const teams = { "GET /teams": { json: { items: TEAMS, is_paginated: false } } } as const;

export const SignIn: Story = {
  ...serves({ config: { magic_link_enabled: true, enabled_oauth_providers: [{ id: "google" }, { id: "github" }] } }),
  render: () => html`<auth-sign-in no-redirect></auth-sign-in>`,
  play: async ({ canvasElement }: Args) => {
    await within(canvasElement).findByLabelText(msg("Email"), { exact: true });
    await expectRightToLeft(canvasElement, "auth-sign-in");
  },
};

export const SignInWrongPassword: Story = {
  ...serves({ answers: { "POST /auth/password/sign-in": { knownError: new KnownErrors.EmailPasswordMismatch() } } }),
  render: () => html`<auth-sign-in no-redirect></auth-sign-in>`,
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await fill(canvas, { [msg("Email")]: "ada@example.com", [msg("Password")]: "correct horse battery" });
    await press(canvas, msg("Sign in"));
    await expectAlert(canvas, msg("Wrong email or password."));
  },
};

export const SignUp: Story = {
  ...serves({}),
  render: () => html`<auth-sign-up no-redirect></auth-sign-up>`,
  play: async ({ canvasElement }: Args) => expectRightToLeft(canvasElement, "auth-sign-up"),
};

export const UserButtonMenu: Story = {
  ...signedIn(),
  render: () => html`<div style="display:flex;justify-content:flex-start"><auth-user-button show-name></auth-user-button></div>`,
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await press(canvas, "Ada Lovelace");
    await expect(await canvas.findByRole("menuitem", { name: msg("Sign out") })).toBeVisible();
  },
};

export const AccountSettings: Story = {
  ...signedIn({ config: everything, user: { selected_team_id: TEAM_ID }, answers: teams }),
  render: () => html`<auth-account-settings></auth-account-settings>`,
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await openAccountTab(canvasElement, msg("Danger zone"));
    await canvas.findByRole("heading", { name: msg("Danger zone"), level: 3 });
    await expectRightToLeft(canvasElement, "auth-account-settings");
    await expectRightToLeft(canvasElement, "auth-session-settings");
  },
};

export const AccountSettingsDark: Story = dark({ ...AccountSettings });

export const PasswordsDoNotMatch: Story = {
  ...signedIn(),
  render: () => html`<auth-password-settings></auth-password-settings>`,
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await fill(canvas, { [msg("Current password")]: "correct horse battery", [msg("New password")]: "staple engine difference", [msg("Repeat new password")]: "staple engine different" });
    await press(canvas, msg("Change password"));
    await expectAlert(canvas, msg("Passwords do not match."));
  },
};

export const DeleteAccountDialog: Story = {
  ...signedIn({ config: everything }),
  render: () => html`<auth-delete-account></auth-delete-account>`,
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await press(canvas, msg("Delete account"));
    await openDialog(canvas, msg("Delete your account?"));
  },
};

export const TeamSwitcherOpen: Story = {
  ...signedIn({ config: everything, user: { selected_team_id: TEAM_ID }, answers: teams }),
  render: () => html`<auth-team-switcher allow-create></auth-team-switcher>`,
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole("button", { name: /Analytical Engines/ }));
    await expect(await canvas.findByRole("listbox", { name: msg("Teams") })).toBeVisible();
  },
};

export const TeamSettingsAdmin: Story = {
  ...signedIn({
    user: { selected_team_id: TEAM_ID },
    answers: {
      ...teams,
      "GET /team-permissions": { json: { items: teamPermissions(ADMIN_PERMISSIONS), is_paginated: false } },
      "GET /team-member-profiles": { json: { items: teamMembers(), is_paginated: false } },
      "GET /team-invitations": { json: { items: teamInvitations(), is_paginated: false } },
    },
  }),
  render: () => html`<auth-team-settings></auth-team-settings>`,
  play: async ({ canvasElement }: Args) => {
    await within(canvasElement).findByRole("heading", { name: msg("Members") });
    await expectRightToLeft(canvasElement, "auth-team-settings");
  },
};

export const TeamInvitation: Story = {
  ...signedIn({ answers: { "POST /team-invitations/accept/details": { json: { team_id: TEAM_ID, team_display_name: "Analytical Engines" } } } }),
  render: () => html`<auth-team-invitation code="story-invitation-code"></auth-team-invitation>`,
  play: async ({ canvasElement }: Args) => void (await within(canvasElement).findByRole("button", { name: msg("Accept") })),
};

export const TwoFactorSignIn: Story = {
  ...serves({ answers: { "POST /auth/mfa/sign-in": { knownError: new KnownErrors.InvalidTotpCode() } } }),
  render: () => html`<auth-mfa no-redirect></auth-mfa>`,
  beforeEach: () => {
    sessionStorage.setItem(MFA_ATTEMPT_CODE_KEY, "story-attempt-code");
    return () => sessionStorage.removeItem(MFA_ATTEMPT_CODE_KEY);
  },
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await fill(canvas, { [msg("Code")]: "123456" });
    await press(canvas, msg("Verify"));
    await expectAlert(canvas, msg("The code is invalid. Please try again."));
  },
};

export const CliAuthConfirm: Story = {
  name: "CLI Auth Confirm",
  ...signedIn(),
  render: () => html`<auth-cli-auth-confirm login-code="story-login-code"></auth-cli-auth-confirm>`,
  play: async ({ canvasElement }: Args) => void (await within(canvasElement).findByRole("button", { name: msg("Confirm") })),
};
