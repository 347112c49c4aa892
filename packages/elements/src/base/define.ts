/**
 * Defines the given elements where there is a DOM (on a server, importing an entry defines nothing). In a
 * module of its own, so that an entry defining one element loads no other element's code.
 */
export function defineElements(elements: Record<string, CustomElementConstructor>): void {
  if (typeof customElements === "undefined") return;
  for (const [name, element] of Object.entries(elements)) if (!customElements.get(name)) customElements.define(name, element);
}
