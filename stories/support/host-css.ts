import type { Decorator } from "@storybook/web-components-vite";
import { html } from "lit";
import bootstrapReboot from "bootstrap/dist/css/bootstrap-reboot.css?inline";
import normalize from "normalize.css/normalize.css?inline";
import tailwindPreflight from "tailwindcss/preflight.css?inline";
import hostile from "../../packages/elements/test/support/hostile-page.css?inline";

/**
 * The host page stylesheets of issue 16 §1, the same files its end-to-end test (packages/elements/test/
 * host-css.e2e.test.ts) screenshots the widgets under: the resets real apps ship, and a hostile stylesheet.
 */
export const HOST_CSS = {
  "Tailwind preflight": tailwindPreflight,
  "Bootstrap 5 reboot": bootstrapReboot,
  "normalize.css": normalize,
  "Hostile stylesheet": hostile,
} as const;

export type HostCss = keyof typeof HOST_CSS;

/**
 * Puts the story on a page styled by `parameters.hostCss`. The `<style>` is part of the story's own markup, so
 * it styles the whole frame while the story is shown and leaves with it when another story is selected.
 */
export const withHostCss: Decorator = (story, context) => {
  const name = context.parameters.hostCss as HostCss | undefined;
  if (!name) return story();
  const style = document.createElement("style");
  style.dataset.hostCss = name;
  style.textContent = HOST_CSS[name];
  return html`${style}${story()}`;
};
