import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, expectLoaded, openAccountTab, within } from "./support/play.js";
import { withHostCss, type HostCss } from "./support/host-css.js";
import { createStoryApp } from "./support/story-app.js";
import { TEAM_ID, TEAMS } from "./support/story-data.js";

/**
 * Issue 16 §1: a host page's CSS cannot break the widgets. The same widgets on a bare page and on pages that
 * load the resets real apps ship (Tailwind's preflight, Bootstrap 5's reboot, normalize.css) or a hostile
 * stylesheet: switch between the stories to compare. The end-to-end test host-css.e2e.test.ts compares the
 * screenshots; these stories are for a person to look.
 */
const meta: Meta = {
  title: "Host page CSS",
  tags: ["!autodocs"],
  decorators: [withHostCss],
  // A literal `parameters` (not a spread of `serves()`): Storybook's docs plugin adds its own key to a meta.
  parameters: { latchkey: { config: { magic_link_enabled: true, passkey_enabled: true, enabled_oauth_providers: [{ id: "google" }, { id: "github" }] } } },
  // Signed out, the sign-in form; below it, in an app of its own that is signed in, the account widgets.
  render: () => html`<auth-sign-in no-redirect></auth-sign-in>
    <auth-app .app=${signedInApp()}>
      <div style="display:flex;justify-content:space-between;gap:1rem;margin:1.5rem 0">
        <auth-team-switcher></auth-team-switcher><auth-user-button show-name></auth-user-button>
      </div>
      <auth-account-settings></auth-account-settings>
    </auth-app>`,
};
export default meta;
type Story = StoryObj;
type Args = { canvasElement: HTMLElement };

function signedInApp() {
  return createStoryApp({
    signedIn: true,
    config: { passkey_enabled: true, allow_user_api_keys: true, client_user_deletion_enabled: true, client_team_creation_enabled: true },
    user: { selected_team_id: TEAM_ID },
    answers: { "GET /teams": { json: { items: TEAMS, is_paginated: false } } },
  });
}

/** Waits until every widget has loaded, and checks the page's stylesheet is the story's. */
function underHostCss(hostCss: HostCss | undefined): Story {
  return {
    parameters: { hostCss },
    play: async ({ canvasElement }: Args) => {
      const canvas = within(canvasElement);
      await canvas.findByRole("button", { name: "Sign in with a passkey" });
      await openAccountTab(canvasElement, "Danger zone");
      await canvas.findByRole("heading", { name: "Danger zone", level: 3 });
      await expectLoaded(canvas);
      await expect(document.querySelector("style[data-host-css]")?.getAttribute("data-host-css")).toBe(hostCss);
    },
  };
}

/** No stylesheet of the page's own: what the others must look like. */
export const BarePage: Story = underHostCss(undefined);

export const TailwindPreflight: Story = underHostCss("Tailwind preflight");

export const BootstrapReboot: Story = { ...underHostCss("Bootstrap 5 reboot"), name: "Bootstrap 5 Reboot" };

export const NormalizeCss: Story = { ...underHostCss("normalize.css"), name: "normalize.css" };

/** Bare elements restyled as carelessly as can be: red 11 px buttons, yellow inputs, margins everywhere. */
export const HostileStylesheet: Story = underHostCss("Hostile stylesheet");
