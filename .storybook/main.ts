import type { StorybookConfig } from "@storybook/web-components-vite";
import { defaultClientConditions } from "vite";
import { oauthIcons } from "./oauth-icons.js";

/** Storybook 10 for the Latchkey elements: `npm run storybook` (dev, port 6006), `npm run build-storybook` (CI). */
const config: StorybookConfig = {
  stories: ["../stories/**/*.stories.ts"],
  framework: { name: "@storybook/web-components-vite", options: {} },
  // The Docs pages (autodocs, see preview.ts); controls, actions, viewports and toolbars are built in.
  addons: ["@storybook/addon-docs"],
  // The elements fetch only the active language's messages, at run time: serve the catalogues at /locales/.
  staticDirs: [{ from: "../packages/elements/locales", to: "/locales" }],
  // The machines reach no network besides package registries: no telemetry, no update checks.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // The stories show the elements' TypeScript sources (the `source` export condition), not their built dist/.
  // The OAuth providers' marks come from Storybook itself (oauth-icons.ts).
  viteFinal: (vite) => ({ ...vite, plugins: [...(vite.plugins ?? []), oauthIcons()], resolve: { ...vite.resolve, conditions: ["source", ...defaultClientConditions] } }),
};

export default config;
