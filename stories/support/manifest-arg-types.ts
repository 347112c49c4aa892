import type { Preview } from "@storybook/web-components-vite";

/**
 * Tidies the argTypes Storybook derives from the Custom Elements Manifest, so an element's Docs table and
 * Controls panel list its API once, with controls only where a control can change something:
 *
 * - A property backed by an attribute (`noRedirect` ↔ `no-redirect`) is one row, the attribute's (the stories'
 *   args are attribute names); its description names the property.
 * - A property without an attribute (`<auth-app>`'s `app`, an object) is listed, but offers no control.
 * - Attributes get the control their type allows: a checkbox for booleans, a text field for strings, radio
 *   buttons for a union of string literals. (Left alone, Storybook offers a JSON editor for `string | undefined`.)
 * - Events, parts and custom properties are documentation only: no control.
 *
 * Runs after Storybook's own extraction (`setCustomElementsManifest`) and before it infers controls.
 */

type ArgTypesEnhancer = NonNullable<Preview["argTypesEnhancers"]>[number];
type ArgTypes = ReturnType<ArgTypesEnhancer>;

/** The parts of a manifest declaration this reads (schema: custom-elements-manifest, v2). */
interface ManifestDeclaration {
  tagName?: string;
  attributes?: Array<{ name: string; type?: { text: string }; fieldName?: string }>;
  members?: Array<{ kind: string; name: string; attribute?: string; privacy?: string; static?: boolean }>;
}
export interface Manifest {
  modules?: Array<{ declarations?: ManifestDeclaration[] }>;
}

/** Categories Storybook's web-components framework gives rows that are documentation only. */
const DOCUMENTATION_ONLY = new Set(["events", "css shadow parts", "css custom properties", "slots"]);

export function manifestArgTypes(manifest: Manifest | undefined): ArgTypesEnhancer {
  const declarations = new Map<string, ManifestDeclaration>();
  for (const module of manifest?.modules ?? []) {
    for (const declaration of module.declarations ?? []) if (declaration.tagName) declarations.set(declaration.tagName, declaration);
  }
  return (context) => {
    const declaration = typeof context.component === "string" ? declarations.get(context.component) : undefined;
    if (!declaration) return context.argTypes;
    const argTypes: ArgTypes = { ...context.argTypes };
    for (const [name, argType] of Object.entries(argTypes)) {
      if (DOCUMENTATION_ONLY.has(String(argType.table?.category))) argTypes[name] = { ...argType, control: false };
    }
    for (const member of declaration.members ?? []) {
      if (member.kind !== "field" || member.static) continue;
      if (!member.attribute) {
        if (argTypes[member.name]) argTypes[member.name] = { ...argTypes[member.name]!, control: false };
        continue;
      }
      if (member.attribute === member.name) continue;
      delete argTypes[member.name];
      const row = argTypes[member.attribute];
      if (row) argTypes[member.attribute] = { ...row, description: `${row.description ?? ""}\n\nProperty: \`${member.name}\`.`.trim() };
    }
    for (const attribute of declaration.attributes ?? []) {
      const row = argTypes[attribute.name];
      if (row) argTypes[attribute.name] = { ...row, ...controlFor(attribute.type?.text) };
    }
    return argTypes;
  };
}

/** The Storybook type (and so the control) of an attribute with this TypeScript type; attributes are text. */
function controlFor(typeText: string | undefined): Partial<ArgTypes[string]> {
  const types = (typeText ?? "string").split("|").map((part) => part.trim()).filter((part) => part !== "undefined" && part !== "null");
  if (types.length === 1 && types[0] === "boolean") return { type: { name: "boolean" } };
  if (types.length === 1 && types[0] === "number") return { type: { name: "number" } };
  const literals = types.map((part) => /^(["'])(.*)\1$/.exec(part)?.[2]);
  if (literals.length > 0 && literals.every((literal) => literal !== undefined)) return { type: { name: "enum", value: literals as string[] }, options: literals as string[] };
  return { type: { name: "string" } };
}
