import { KnownErrors } from "@latchkey/core";
import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import type { StoryServer } from "./support/story-app.js";

/**
 * `<auth-oauth-callback>`: the page a provider sends the user back to. Each story puts a provider's answer
 * (`code`, `state`) in the page URL and the matching PKCE verifier cookie, as `signInWithOAuth` left them.
 */
const meta: Meta = {
  title: "Elements/OAuth callback",
  component: "auth-oauth-callback",
  render: () => html`<auth-oauth-callback no-redirect></auth-oauth-callback>`,
  loaders: [
    async () => {
      const state = "story-state";
      document.cookie = `stack-oauth-outer-${state}=story-verifier; Path=/; SameSite=Lax`;
      const url = new URL(location.href);
      url.searchParams.set("code", "story-code");
      url.searchParams.set("state", state);
      history.replaceState(history.state, "", url.toString());
      return {};
    },
  ],
};
export default meta;
type Story = StoryObj;

const server = (latchkey: StoryServer) => ({ parameters: { latchkey } });

export const SignedIn: Story = {};

export const SigningIn: Story = { ...server({ answers: { "POST /auth/oauth/token": { pending: true } } }) };

/** The code was used already (a second tab, a replay): the server refuses it. */
export const CodeRefused: Story = { ...server({ answers: { "POST /auth/oauth/token": { knownError: new KnownErrors.InvalidAuthorizationCode() } } }) };

/** Opened again from history: nothing in the URL is ours any more. */
export const AlreadyUsed: Story = { loaders: [] };
