import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, expectLoaded, openAccountTab, within } from "./support/play.js";
import { dark, serves, signedIn } from "./support/story-app.js";

/**
 * `<auth-account-settings>`: the whole account page. Which sections show depends on the project (passkeys,
 * API keys, account deletion) and on the `hide-*` attributes; each section also has its own stories.
 */
const meta: Meta = {
  title: "Account/Account settings",
  component: "auth-account-settings",
  args: { "hide-profile": false, "hide-sessions": false, "hide-notifications": false },
  render: (args) => html`<auth-account-settings
    ?hide-profile=${args["hide-profile"]}
    ?hide-sessions=${args["hide-sessions"]}
    ?hide-notifications=${args["hide-notifications"]}></auth-account-settings>`,
};
export default meta;
type Story = StoryObj;

/** Every section the project allows: passkeys, API keys and the danger zone included. */
const everything = { passkey_enabled: true, allow_user_api_keys: true, client_user_deletion_enabled: true, client_team_creation_enabled: true };

export const AllSections: Story = {
  ...signedIn({ config: everything }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const tabs: [string, string[]][] = [
      ["Profile", ["Profile", "Email addresses"]],
      ["Security", ["Password", "Passkeys", "Two-factor authentication", "Active sessions"]],
      ["Teams", ["Teams"]],
      ["Email notifications", ["Email notifications"]],
      ["API keys", ["API keys"]],
      ["Danger zone", ["Danger zone"]],
    ];
    for (const [tab, headings] of tabs) {
      await openAccountTab(canvasElement, tab);
      for (const name of headings) await expect(await canvas.findByRole("heading", { name, level: 3 })).toBeVisible();
    }
    await expectLoaded(canvas);
  },
};

/** The project's defaults: no passkeys, no API keys, no self-service deletion, so those sections are absent. */
export const ProjectDefaults: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole("heading", { name: "Profile", level: 3 });
    await expect(canvas.queryByRole("heading", { name: "API keys" })).toBeNull();
    await expect(canvas.queryByRole("heading", { name: "Danger zone" })).toBeNull();
    await expectLoaded(canvas);
  },
};

/** A page that keeps only some sections (`hide-profile`, `hide-sessions`, `hide-notifications`). */
export const SomeSectionsHidden: Story = {
  ...signedIn({ config: everything }),
  args: { "hide-profile": true, "hide-sessions": true, "hide-notifications": true },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await openAccountTab(canvasElement, "Security");
    await canvas.findByRole("heading", { name: "Password", level: 3 });
    await expect(canvas.queryByRole("heading", { name: "Profile" })).toBeNull();
    await expectLoaded(canvas);
  },
};

export const Dark: Story = dark({ ...signedIn({ config: everything }), play: AllSections.play });

/** Signed out: the page offers the sign-in page instead of the sections. */
export const SignedOut: Story = {
  ...serves({}),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole("link", { name: /sign in/i })).toBeVisible();
  },
};

/** The account has not arrived yet. */
export const Loading: Story = { ...signedIn({ answers: { "GET /users/me": { pending: true } } }) };

export const AccountUnavailable: Story = {
  ...signedIn({ answers: { "GET /users/me": { json: { error: "Service unavailable" }, status: 503 } } }),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole("alert")).toHaveTextContent("Account unavailable");
  },
};
