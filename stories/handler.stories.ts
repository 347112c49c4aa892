import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { signedIn } from "./support/story-app.js";
import { TEAM_ID } from "./support/story-data.js";

/**
 * `<auth-handler>`: routes the page's path under the handler path (`/handler/…`) to the right element. Each
 * story puts the frame at such a path for its render (history.replaceState keeps Storybook's own query
 * parameters) and puts the frame's address back afterwards.
 */
const meta: Meta = {
  title: "Elements/Handler",
  component: "auth-handler",
  render: () => html`<auth-handler></auth-handler>`,
};
export default meta;
type Story = StoryObj;

function atPath(path: string, params: Record<string, string> = {}): Pick<Story, "beforeEach"> {
  return {
    beforeEach: () => {
      const original = location.href;
      const search = new URLSearchParams(location.search);
      for (const [name, value] of Object.entries(params)) search.set(name, value);
      history.replaceState(history.state, "", `${path}?${search}`);
      return () => history.replaceState(history.state, "", original);
    },
  };
}

export const SignInPage: Story = { ...atPath("/handler/sign-in") };

export const SignUpPage: Story = { ...atPath("/handler/sign-up") };

export const ForgotPasswordPage: Story = { ...atPath("/handler/forgot-password") };

export const ErrorPage: Story = { ...atPath("/handler/error", { errorCode: "REDIRECT_URL_NOT_WHITELISTED", message: "This page's address is not a trusted domain of the project." }) };

export const NotFound: Story = { ...atPath("/handler/no-such-page") };

export const AccountSettingsPage: Story = { ...atPath("/handler/account-settings"), ...signedIn() };

export const TeamInvitationPage: Story = {
  ...atPath("/handler/team-invitation", { code: "story-invitation-code" }),
  ...signedIn({ answers: { "POST /team-invitations/accept/details": { json: { team_id: TEAM_ID, team_display_name: "Analytical Engines" } } } }),
};

export const CliAuthConfirmPage: Story = { name: "CLI Auth Confirm Page", ...atPath("/handler/cli-auth-confirm", { login_code: "story-login-code" }), ...signedIn() };

/** Without a pending sign-in in session storage: the page says the sign-in expired. */
export const MfaPageExpired: Story = { name: "MFA Page Expired", ...atPath("/handler/mfa") };
