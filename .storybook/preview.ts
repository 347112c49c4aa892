import { LOCALES, setLocale, setLocalesUrl } from "@latchkey/elements";
import { setCustomElementsManifest, type Decorator, type Preview } from "@storybook/web-components-vite";
import { html } from "lit";
import { withActions } from "storybook/actions/decorator";
import { manifestArgTypes, type Manifest } from "../stories/support/manifest-arg-types.js";
import { createStoryApp, type StoryServer } from "../stories/support/story-app.js";
import { ElementDocsPage } from "./element-docs-page.js";

// The Custom Elements Manifest (generated from the elements' JSDoc) feeds the Controls panel and each element's
// Docs page (description, attributes, properties, events, parts, CSS custom properties).
// A glob, not an import: it matches nothing, rather than failing the build, before the manifest is generated.
const manifests = import.meta.glob<Manifest>("../packages/elements/custom-elements.json", { eager: true, import: "default" });
const manifest = Object.values(manifests)[0];
if (manifest) setCustomElementsManifest(manifest);

// The message catalogues are served from Storybook's static dir (see main.ts), next to iframe.html.
setLocalesUrl("locales/");

/** A story's language: its `parameters.locale` (the right-to-left story set), else the toolbar's. */
const localeOf = (context: { parameters: Record<string, unknown>; globals: Record<string, unknown> }): string =>
  (context.parameters.locale as string | undefined) ?? (context.globals.locale as string | undefined) ?? "en";

/**
 * Every story renders inside an `<auth-app>` whose app is made fresh for this render from the story's
 * `parameters.latchkey` (canned server answers), themed by the toolbar's `theme` global.
 */
const withStoryApp: Decorator = (story, context) => {
  const app = createStoryApp(context.parameters.latchkey as StoryServer | undefined);
  const theme = context.parameters.theme === "dark" || context.globals.theme === "dark" ? "dark" : "light";
  const background = theme === "dark" ? "#0b1220" : "#ffffff";
  const locale = localeOf(context);
  // A story fills its frame; on a Docs page, where all of an element's stories stand one below the other, it does not.
  const minHeight = context.viewMode === "docs" ? "0" : "100vh";
  return html`<div lang=${locale} style="background:${background};padding:1.5rem;min-height:${minHeight};box-sizing:border-box">
    <auth-app theme=${theme} locale=${locale} .app=${app}>${story()}</auth-app>
  </div>`;
};

const preview: Preview = {
  // A Docs page for every element (the stories files whose meta names a `component`); the story sets that cut
  // across elements (right to left, host page CSS, …) opt out with `tags: ["!autodocs"]`.
  tags: ["autodocs"],
  decorators: [withStoryApp, withActions],
  argTypesEnhancers: [manifestArgTypes(manifest)],
  // The language is page-wide: set it (and wait for its messages) before every render, so a story never shows
  // the previous story's language and its play function finds the labels it looks for.
  loaders: [async (context) => void (await setLocale(localeOf(context)))],
  globalTypes: {
    theme: {
      description: "Colour scheme of the elements",
      toolbar: {
        title: "Theme",
        icon: "mirror",
        items: [
          { value: "light", title: "Light", icon: "sun" },
          { value: "dark", title: "Dark", icon: "moon" },
        ],
        dynamicTitle: true,
      },
    },
    locale: {
      description: "Language of the elements",
      toolbar: {
        title: "Language",
        icon: "globe",
        items: LOCALES.map((value) => ({ value, title: value })),
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: "light", locale: "en" },
  parameters: {
    layout: "fullscreen",
    // The elements' events, shown in the Actions panel as they fire.
    actions: {
      handles: [
        "auth-signed-in", "auth-signed-up", "auth-reset-email-sent", "auth-password-reset", "auth-email-verified", "auth-signed-out",
        "auth-profile-updated", "auth-contact-channels-changed", "auth-password-changed", "auth-passkey-added", "auth-mfa-changed",
        "auth-api-key-created", "auth-api-key-revoked", "auth-account-deleted", "auth-cli-login-confirmed",
        "auth-team-changed", "auth-team-updated", "auth-team-member-removed", "auth-team-left", "auth-team-deleted", "auth-team-invitation-accepted",
      ],
    },
    controls: { expanded: true },
    docs: { page: ElementDocsPage },
  },
};

export default preview;
