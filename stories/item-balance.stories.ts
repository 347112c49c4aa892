import { KnownErrors } from "@latchkey/core";
import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { within } from "./support/play.js";
import { dark, serves, signedIn } from "./support/story-app.js";

/** `<auth-item-balance>`: how many of an item (credits, seats…) the signed-in user or one of their teams holds. */
const meta: Meta = {
  title: "Payments/Item balance",
  component: "auth-item-balance",
  args: { item: "credits", "no-label": false },
  render: (args) => html`<auth-item-balance item=${args.item} ?no-label=${args["no-label"]}></auth-item-balance>`,
};
export default meta;
type Story = StoryObj;
type Args = { canvasElement: HTMLElement };

const credits = (quantity: number) => signedIn({ answers: { "GET /payments/items/user/*/*": { json: { id: "credits", display_name: "Credits", quantity } } } });

export const Balance: Story = {
  ...credits(1250),
  play: async ({ canvasElement }: Args) => {
    await within(canvasElement).findByText("1,250");
  },
};

export const DarkBalance: Story = dark({ ...Balance });

/** The number alone (the name stays for screen readers). */
export const NumberOnly: Story = { ...credits(42), args: { "no-label": true } };

/** Overdrawn (a forced decrease): shown as 0. */
export const Overdrawn: Story = {
  ...credits(-5),
  play: async ({ canvasElement }: Args) => {
    await within(canvasElement).findByText("0");
  },
};

export const Loading: Story = { ...signedIn({ answers: { "GET /payments/items/user/*/*": { pending: true } } }) };

/** Signed out: nothing to show. */
export const SignedOut: Story = { ...serves({}) };

/** An item id the project does not have: the server's words. */
export const UnknownItem: Story = {
  ...signedIn({ answers: { "GET /payments/items/user/*/*": { knownError: new KnownErrors.ItemNotFound("credits") } } }),
  play: async ({ canvasElement }: Args) => {
    await within(canvasElement).findByRole("alert");
  },
};

export const RightToLeft: Story = { ...credits(1250), parameters: { ...credits(1250).parameters, locale: "ar" } };
