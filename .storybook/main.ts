import type { StorybookConfig } from "@storybook/web-components-vite";

/** Storybook 10 for the Latchkey elements: `npm run storybook` (dev, port 6006), `npm run build-storybook` (CI). */
const config: StorybookConfig = {
  stories: ["../stories/**/*.stories.ts"],
  framework: { name: "@storybook/web-components-vite", options: {} },
  // The machines reach no network besides package registries: no telemetry, no update checks.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
};

export default config;
