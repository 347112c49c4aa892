import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";

/**
 * `<auth-app>` renders nothing itself: it gives its app to the elements inside and carries the theme. These
 * stories show the theming hooks on a sign-in form: the `--auth-*` custom properties a page can set.
 */
const meta: Meta = {
  title: "Elements/App and theming",
  component: "auth-app",
  parameters: { latchkey: { config: { magic_link_enabled: true } } },
};
export default meta;
type Story = StoryObj;

export const Default: Story = { render: () => html`<auth-sign-in no-redirect></auth-sign-in>` };

export const CustomProperties: Story = {
  render: () => html`<div
    style="--auth-color-primary:#7c2d12;--auth-color-primary-text:#fff;--auth-color-border:#7c6f64;--auth-radius:0;--auth-font:Georgia,serif;--auth-spacing:1.25rem"
  >
    <auth-sign-in no-redirect></auth-sign-in>
  </div>`,
};
