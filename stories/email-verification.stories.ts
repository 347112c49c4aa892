import { KnownErrors } from "@latchkey/core";
import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import type { StoryServer } from "./support/story-app.js";

/** `<auth-email-verification code="…">`: verifies on load; one story per outcome. */
const meta: Meta = {
  title: "Elements/Email verification",
  component: "auth-email-verification",
  args: { code: "story-verification-code" },
  render: (args) => html`<auth-email-verification code=${args.code}></auth-email-verification>`,
};
export default meta;
type Story = StoryObj;

const server = (latchkey: StoryServer) => ({ parameters: { latchkey } });
const verifyAnswers = (answer: StoryServer["answers"]) => server({ signedIn: true, answers: answer });

export const Verified: Story = { ...server({ signedIn: true }) };

export const Verifying: Story = { ...verifyAnswers({ "POST /contact-channels/verify": { pending: true } }) };

export const LinkExpired: Story = { ...verifyAnswers({ "POST /contact-channels/verify": { knownError: new KnownErrors.VerificationCodeExpired() } }) };

export const LinkAlreadyUsed: Story = { ...verifyAnswers({ "POST /contact-channels/verify": { knownError: new KnownErrors.VerificationCodeAlreadyUsed() } }) };

export const InvalidLink: Story = { ...verifyAnswers({ "POST /contact-channels/verify": { knownError: new KnownErrors.VerificationCodeNotFound() } }) };

/** Opened without a code (a mangled link). */
export const NoCode: Story = { render: () => html`<auth-email-verification></auth-email-verification>` };
