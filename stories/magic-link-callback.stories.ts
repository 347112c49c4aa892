import { KnownErrors } from "@latchkey/core";
import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import type { StoryServer } from "./support/story-app.js";

/** `<auth-magic-link-callback code="…">`: signs in on load; one story per outcome. */
const meta: Meta = {
  title: "Elements/Magic link callback",
  component: "auth-magic-link-callback",
  args: { code: "story-magic-link-code", "no-redirect": true },
  render: (args) => html`<auth-magic-link-callback code=${args.code} ?no-redirect=${args["no-redirect"]}></auth-magic-link-callback>`,
};
export default meta;
type Story = StoryObj;

const server = (latchkey: StoryServer) => ({ parameters: { latchkey } });

export const SignedIn: Story = {};

export const SigningIn: Story = { ...server({ answers: { "POST /auth/otp/sign-in": { pending: true } } }) };

export const LinkExpired: Story = { ...server({ answers: { "POST /auth/otp/sign-in": { knownError: new KnownErrors.VerificationCodeExpired() } } }) };

export const LinkAlreadyUsed: Story = { ...server({ answers: { "POST /auth/otp/sign-in": { knownError: new KnownErrors.VerificationCodeAlreadyUsed() } } }) };

export const NetworkFailure: Story = { ...server({ answers: { "POST /auth/otp/sign-in": { networkFailure: true } } }) };

export const NoCode: Story = { render: () => html`<auth-magic-link-callback no-redirect></auth-magic-link-callback>` };
