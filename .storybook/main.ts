import type { StorybookConfig } from "@storybook/web-components-vite";

/** Storybook 10 for the Latchkey elements: `npm run storybook` (dev, port 6006), `npm run build-storybook` (CI). */
const config: StorybookConfig = {
  stories: ["../stories/**/*.stories.ts"],
  framework: { name: "@storybook/web-components-vite", options: {} },
  // The elements fetch only the active language's messages, at run time: serve the catalogues at /locales/.
  staticDirs: [{ from: "../packages/elements/locales", to: "/locales" }],
  // The machines reach no network besides package registries: no telemetry, no update checks.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
};

export default config;
