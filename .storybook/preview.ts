import "@latchkey/elements";
import { setCustomElementsManifest, type Decorator, type Preview } from "@storybook/web-components-vite";
import { html } from "lit";
import { withActions } from "storybook/actions/decorator";
import { createStoryApp, type StoryServer } from "../stories/support/story-app.js";

// The Custom Elements Manifest (generated from the elements' JSDoc) feeds the Controls and Docs panels.
// A glob, not an import: it matches nothing, rather than failing the build, before the manifest is generated.
const manifests = import.meta.glob<object>("../packages/elements/custom-elements.json", { eager: true, import: "default" });
const manifest = Object.values(manifests)[0];
if (manifest) setCustomElementsManifest(manifest);

/**
 * Every story renders inside an `<auth-app>` whose app is made fresh for this render from the story's
 * `parameters.latchkey` (canned server answers), themed by the toolbar's `theme` global.
 */
const withStoryApp: Decorator = (story, context) => {
  const app = createStoryApp(context.parameters.latchkey as StoryServer | undefined);
  const theme = context.globals.theme === "dark" ? "dark" : "light";
  const background = theme === "dark" ? "#0b1220" : "#ffffff";
  return html`<div style="background:${background};padding:1.5rem;min-height:100vh;box-sizing:border-box">
    <auth-app theme=${theme} .app=${app}>${story()}</auth-app>
  </div>`;
};

const preview: Preview = {
  decorators: [withStoryApp, withActions],
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
  },
  initialGlobals: { theme: "light" },
  parameters: {
    layout: "fullscreen",
    // The elements' events, shown in the Actions panel as they fire.
    actions: { handles: ["auth-signed-in", "auth-signed-up", "auth-reset-email-sent", "auth-password-reset", "auth-email-verified", "auth-signed-out"] },
    controls: { expanded: true },
  },
};

export default preview;
