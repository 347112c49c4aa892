import { KnownErrors } from "@latchkey/core";
import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { action } from "storybook/actions";
import { expect, expectAlert, expectNoSidewaysScroll, userEvent, waitFor, within } from "./support/play.js";
import { dark, serves, signedIn } from "./support/story-app.js";
import { STORY_PROJECT_ID } from "./support/story-app.js";

/**
 * `<auth-pricing-table>`: a group's offers with prices and intervals, the current plan marked, checkout buttons.
 * The story's app answers `GET /payments/offers/user/{id}` and `create-purchase-url` itself; the checkout event is
 * cancelled, so pressing a button logs the purchase link (Actions panel) instead of leaving the story.
 */
const meta: Meta = {
  title: "Payments/Pricing table",
  component: "auth-pricing-table",
  args: { group: "plans", currency: "USD" },
  render: (args) =>
    html`<auth-pricing-table
      group=${args.group}
      currency=${args.currency}
      @auth-checkout-created=${(event: CustomEvent) => {
        event.preventDefault();
        action("auth-checkout-created")(event.detail);
      }}
    ></auth-pricing-table>`,
};
export default meta;
type Story = StoryObj;
type Args = { canvasElement: HTMLElement };

type Owned = { free?: boolean; pro?: boolean; boost?: boolean };
/** The demo's plans as the offers route sends them: free by default, pro monthly or yearly, a boost add-on of pro. */
function offers(owned: Owned = { free: true }, testMode = false) {
  const offer = (id: string, display_name: string, rest: Record<string, unknown>) => ({
    id,
    display_name,
    customer_type: "user",
    group_id: "plans",
    is_add_on_to: false,
    stackable: false,
    owned: owned[id as keyof Owned] ?? false,
    ...rest,
  });
  return {
    json: {
      items: [
        offer("free", "Free", { prices: "include-by-default" }),
        offer("pro", "Pro", { prices: { monthly: { USD: "9.99", EUR: "9.49", interval: [1, "month"], free_trial: [14, "day"] }, yearly: { USD: "99", EUR: "95", interval: [1, "year"] } } }),
        offer("boost", "Boost", { group_id: null, is_add_on_to: { pro: true }, stackable: true, prices: { once: { USD: "3", EUR: "2.80" } } }),
      ],
      test_mode: testMode,
    },
  };
}

const shop = (owned?: Owned, extra: Parameters<typeof signedIn>[0] = {}, testMode = false) =>
  signedIn({
    ...extra,
    answers: {
      "GET /payments/offers/user/*": offers(owned, testMode),
      // Test mode (a server without a Stripe key): the link opens the hosted page's "complete test purchase".
      "POST /payments/purchases/create-purchase-url": { json: { url: `${location.origin}/purchase/${STORY_PROJECT_ID}_storytestmodecode` } },
      ...extra.answers,
    },
  });

/** The free plan is held by default: marked current, with no button. A server with a Stripe key: no test-mode note. */
export const FreePlanCurrent: Story = {
  ...shop(),
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole("button", { name: "Choose Pro" })).toBeVisible();
    await expect(canvasElement.querySelector("[part=plan][aria-current=true] h3")).toHaveTextContent("Free");
    await expect(canvasElement.querySelector("[part=test-mode]")).toBeNull();
  },
};

/** Pro bought: it is the current plan, and its add-on (Boost) can be bought. */
export const ProPlanCurrent: Story = {
  ...shop({ pro: true }),
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole("button", { name: "Choose Boost" })).toBeVisible();
    await expect(canvasElement.querySelector("[part=plan][aria-current=true] h3")).toHaveTextContent("Pro");
  },
};

export const DarkProPlanCurrent: Story = dark({ ...ProPlanCurrent });

/** Every offer, not one group: the Boost add-on is offered only with Pro ("Available with Pro"). */
export const AddOn: Story = {
  ...shop(),
  args: { group: "" },
  play: async ({ canvasElement }: Args) => {
    await within(canvasElement).findByText("Available with Pro");
  },
};

/** An add-on already held and stackable: "Buy more". */
export const AddOnHeld: Story = {
  ...shop({ pro: true, boost: true }),
  args: { group: "" },
  play: async ({ canvasElement }: Args) => {
    await within(canvasElement).findByRole("button", { name: "Buy more" });
  },
};

/**
 * A server without a Stripe key (test mode): a "Test mode" note above the plans says nothing is charged, and
 * pressing a button makes a purchase link whose hosted page completes the purchase without Stripe.
 */
export const TestModeCheckout: Story = {
  ...shop(undefined, {}, true),
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText("Purchases are not charged.")).toBeVisible();
    await expect(canvasElement.querySelector("[part=test-mode]")).toHaveTextContent("Test mode");
    const table = canvasElement.querySelector("auth-pricing-table")!;
    const created = new Promise<CustomEvent>((resolve) => table.addEventListener("auth-checkout-created", (event) => resolve(event as CustomEvent), { once: true }));
    await userEvent.click(await canvas.findByRole("button", { name: "Choose Pro" }));
    await expect((await created).detail).toMatchObject({ offerId: "pro", url: expect.stringContaining("/purchase/") });
  },
};

/** Euro amounts when the page asks for them. */
export const InEuros: Story = { ...shop(), args: { currency: "EUR" } };

export const Loading: Story = { ...shop(undefined, { answers: { "GET /payments/offers/user/*": { pending: true } } }) };

export const SignedOut: Story = { ...serves({}) };

/** A server with a Stripe key whose project has not finished Stripe onboarding refuses the purchase link. */
export const PaymentsNotSetUp: Story = {
  ...shop(undefined, {
    answers: {
      "POST /payments/purchases/create-purchase-url": {
        json: { error: "Payments are not set up in this Stack Auth project. Please go to the Stack Auth dashboard and complete the Payments onboarding." },
        status: 400,
      },
    },
  }),
  play: async ({ canvasElement }: Args) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole("button", { name: "Choose Pro" }));
    await expectAlert(canvas, "Something went wrong. Please try again.");
  },
};

export const OffersUnavailable: Story = {
  ...shop(undefined, { answers: { "GET /payments/offers/user/*": { knownError: new KnownErrors.UserAuthenticationRequired() } } }),
  play: async ({ canvasElement }: Args) => {
    await within(canvasElement).findByRole("alert");
  },
};

/** Arabic: right to left, prices and intervals in Arabic. */
export const RightToLeft: Story = {
  ...shop({ pro: true }),
  parameters: { ...shop({ pro: true }).parameters, locale: "ar" },
  play: async ({ canvasElement }: Args) => {
    await waitFor(() => expect(canvasElement.querySelector("auth-pricing-table")).toHaveAttribute("dir", "rtl"));
    await within(canvasElement).findByText("الخطة الحالية");
  },
};

/** A small phone (320 px): the cards stack, nothing scrolls sideways. */
export const Narrow: Story = {
  ...shop(),
  globals: { viewport: { value: "mobile1", isRotated: false } },
  play: async ({ canvasElement }: Args) => {
    await within(canvasElement).findByRole("button", { name: "Choose Pro" });
    await expectNoSidewaysScroll();
  },
};
