import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expect, expectAlert, expectBusy, fill, NETWORK_FAILURE, press, within } from "./support/play.js";
import type { StoryServer } from "./support/story-app.js";

/** `<auth-forgot-password>`: asking for a reset link, waiting, the answer, and a failure. */
const meta: Meta = {
  title: "Elements/Forgot password",
  component: "auth-forgot-password",
  render: () => html`<auth-forgot-password></auth-forgot-password>`,
};
export default meta;
type Story = StoryObj;

const server = (latchkey: StoryServer) => ({ parameters: { latchkey } });

export const Default: Story = {};

export const Sending: Story = {
  ...server({ answers: { "POST /auth/password/send-reset-code": { pending: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { Email: "ada@example.com" });
    await expectBusy(await press(canvas, "Send reset link"));
  },
};

/** The answer never says whether the address has an account. */
export const Sent: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { Email: "ada@example.com" });
    await press(canvas, "Send reset link");
    await expect(await canvas.findByRole("heading", { name: "Check your email" })).toBeVisible();
  },
};

export const NetworkFailure: Story = {
  ...server({ answers: { "POST /auth/password/send-reset-code": { networkFailure: true } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await fill(canvas, { Email: "ada@example.com" });
    await press(canvas, "Send reset link");
    await expectAlert(canvas, NETWORK_FAILURE);
  },
};
