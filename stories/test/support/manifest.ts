import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** One element of the Custom Elements Manifest (packages/elements/custom-elements.json), as the tests read it. */
export interface ManifestElement {
  tagName: string;
  description: string;
  attributes: Array<{ name: string }>;
  /** Public fields; `attribute` names the attribute that sets the same property. */
  members: Array<{ name: string; kind: string; attribute?: string }>;
  events: Array<{ name: string }>;
  cssParts: Array<{ name: string }>;
  cssProperties: Array<{ name: string }>;
}

export async function manifestElements(repoRoot: string): Promise<ManifestElement[]> {
  const manifest = JSON.parse(await readFile(join(repoRoot, "packages/elements/custom-elements.json"), "utf8")) as {
    modules: Array<{ declarations?: Array<Partial<ManifestElement>> }>;
  };
  return manifest.modules
    .flatMap((module) => module.declarations ?? [])
    .filter((declaration): declaration is Partial<ManifestElement> & { tagName: string } => Boolean(declaration.tagName))
    .map((declaration) => ({
      tagName: declaration.tagName,
      description: declaration.description ?? "",
      attributes: declaration.attributes ?? [],
      members: (declaration.members ?? []).filter((member) => member.kind === "field"),
      events: declaration.events ?? [],
      cssParts: declaration.cssParts ?? [],
      cssProperties: declaration.cssProperties ?? [],
    }));
}
