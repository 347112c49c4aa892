/**
 * `npm run analyze --workspace @latchkey/elements` writes custom-elements.json (Storybook's controls and
 * editors read it). The public API of each element is what its JSDoc documents (@attr, @fires, @csspart,
 * @cssprop): reactive state declared with `state: true` and the generic `emit(type)` helper are internals,
 * so this plugin drops them, and private and protected members too.
 */
/** Reactive state and the base class's plumbing (controllers, update cycle). */
const INTERNAL_MEMBERS = new Set(["step", "busy", "error", "state", "message", "sentTo", "open", "updateComplete", "addController", "removeController"]);

export default {
  globs: ["src/**/*.ts"],
  exclude: ["src/sign-in-bundle.ts"],
  litelement: true,
  // package.json names custom-elements.json itself; the analyzer must not rewrite it (the test analyzes into a temp dir).
  packagejson: false,
  plugins: [
    {
      name: "latchkey-public-api-only",
      packageLinkPhase({ customElementsManifest }) {
        for (const mod of customElementsManifest.modules) {
          for (const declaration of mod.declarations ?? []) {
            if (!declaration.tagName) continue;
            declaration.attributes = (declaration.attributes ?? []).filter((a) => a.description);
            declaration.events = (declaration.events ?? []).filter((e) => e.name !== "type");
            declaration.members = (declaration.members ?? []).filter((m) => !m.privacy || m.privacy === "public").filter((m) => !m.static && !INTERNAL_MEMBERS.has(m.name));
          }
        }
      },
    },
  ],
};
