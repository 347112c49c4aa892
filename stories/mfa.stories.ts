import { KnownErrors } from "@latchkey/core";
import { MFA_ATTEMPT_CODE_KEY } from "@latchkey/elements";
import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expectAlert, expectBusy, fill, press, within } from "./support/play.js";
import { dark, serves } from "./support/story-app.js";

/**
 * `<auth-mfa>`: the second sign-in step for accounts with two-factor authentication. `<auth-sign-in>` keeps
 * the attempt code in session storage; each story puts one there for its render and removes it afterwards.
 */
const meta: Meta = {
  title: "Elements/Two-factor sign-in",
  component: "auth-mfa",
  args: { "no-redirect": true },
  render: (args) => html`<auth-mfa ?no-redirect=${args["no-redirect"]}></auth-mfa>`,
};
export default meta;
type Story = StoryObj;

function withAttemptCode(): Pick<Story, "beforeEach"> {
  return {
    beforeEach: () => {
      sessionStorage.setItem(MFA_ATTEMPT_CODE_KEY, "story-attempt-code");
      return () => sessionStorage.removeItem(MFA_ATTEMPT_CODE_KEY);
    },
  };
}

export const EnterCode: Story = { ...serves({}), ...withAttemptCode() };

export const DarkEnterCode: Story = dark({ ...EnterCode });

export const Verifying: Story = {
  ...serves({ answers: { "POST /auth/mfa/sign-in": { pending: true } } }),
  ...withAttemptCode(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { Code: "123456" });
    await expectBusy(await press(canvas, "Verify"));
  },
};

export const WrongCode: Story = {
  ...serves({ answers: { "POST /auth/mfa/sign-in": { knownError: new KnownErrors.InvalidTotpCode() } } }),
  ...withAttemptCode(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { Code: "123456" });
    await press(canvas, "Verify");
    await expectAlert(canvas, "The code is invalid. Please try again.");
  },
};

/** Opened without a pending sign-in (expired, or a reload in another tab): back to sign-in. */
export const NoPendingSignIn: Story = {
  ...serves({}),
  beforeEach: () => sessionStorage.removeItem(MFA_ATTEMPT_CODE_KEY),
};
