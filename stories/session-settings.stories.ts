import type { Meta, StoryObj } from "@storybook/web-components-vite";
import { html } from "lit";
import { expectLoaded, expectStatus, openDialog, press, pressFor, within } from "./support/play.js";
import { dark, serves, signedIn } from "./support/story-app.js";
import { sessions } from "./support/story-data.js";

/** `<auth-session-settings>`: the account's sessions, this browser marked, the others revocable. */
const meta: Meta = {
  title: "Account/Session settings",
  component: "auth-session-settings",
  render: () => html`<auth-session-settings></auth-session-settings>`,
};
export default meta;
type Story = StoryObj;

export const ThreeSessions: Story = { ...signedIn(), play: async ({ canvasElement }) => expectLoaded(within(canvasElement)) };

export const OnlyThisBrowser: Story = {
  ...signedIn({ answers: { "GET /auth/sessions": { json: { items: sessions().slice(0, 1), is_paginated: false } } } }),
  play: ThreeSessions.play,
};

const USER_AGENTS = [
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
];

/** Which browser and system, and where each session was last used from, when the server knows it. */
export const WithLocations: Story = {
  ...signedIn({
    answers: {
      "GET /auth/sessions": {
        json: {
          items: sessions().map((session, i) => ({
            ...session,
            ...(USER_AGENTS[i] ? { last_used_at_user_agent: USER_AGENTS[i] } : {}),
            last_used_at_end_user_ip_info: { ip: `203.0.113.${i + 7}`, countryCode: ["GB", "FR", null][i] ?? null, regionCode: null, cityName: ["London", "Paris", null][i] ?? null, latitude: null, longitude: null, tzIdentifier: null },
          })),
          is_paginated: false,
        },
      },
    },
  }),
  play: ThreeSessions.play,
};

export const DarkThreeSessions: Story = dark({ ...ThreeSessions });

export const Revoked: Story = {
  ...signedIn(),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await pressFor(canvas, "Revoke", /Another browser or device/);
    await press(await openDialog(canvas, "Revoke this session?"), "Revoke");
    await expectStatus(canvas, "The session has been revoked. That device is signed out.");
  },
};

export const RevokeFailed: Story = {
  ...signedIn({ answers: { "DELETE /auth/sessions/*": { json: { error: "Service unavailable" }, status: 503 } } }),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await pressFor(canvas, "Revoke", /Another browser or device/);
    await press(await openDialog(canvas, "Revoke this session?"), "Revoke");
    await canvas.findByRole("alert", {}, { timeout: 5000 });
  },
};

export const Loading: Story = { ...signedIn({ answers: { "GET /auth/sessions": { pending: true } } }) };

export const ListUnavailable: Story = {
  ...signedIn({ answers: { "GET /auth/sessions": { json: { error: "Service unavailable" }, status: 503 } } }),
  play: async ({ canvasElement }) => void (await within(canvasElement).findByRole("alert")),
};

export const SignedOut: Story = { ...serves({}) };

