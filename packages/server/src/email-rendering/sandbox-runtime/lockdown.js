// Best-effort guard for a sandbox that stays warm across renders of one project: after the libraries have
// loaded, no new globals and no new properties on the built-in constructors and prototypes, so a template cannot
// leave data behind (globalThis.x = user, Array.prototype.x = …) for a later render to pick up. Existing
// properties stay writable on purpose: making them read-only breaks libraries that assign over an inherited
// property (the "override mistake"), and the libraries' own global registries (arktype's) stay extensible
// because they grow as schemas are used. The real boundary is the project: projects never share a sandbox.
import { BUILTIN_GLOBALS } from "./globals.js";

export function lockdown() {
  // Every object reachable from the built-in globals: constructors, prototypes, their methods and accessors.
  const seen = new Set();
  const pending = [];
  const visit = (value) => {
    if (value === null || (typeof value !== "object" && typeof value !== "function") || seen.has(value)) return;
    seen.add(value);
    pending.push(value);
  };
  for (const name of BUILTIN_GLOBALS) {
    if (name === "globalThis") continue;
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
    if (descriptor && "value" in descriptor) visit(descriptor.value);
  }
  while (pending.length > 0) {
    const value = pending.pop();
    Object.preventExtensions(value);
    visit(Object.getPrototypeOf(value));
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (!descriptor) continue;
      visit(descriptor.value);
      visit(descriptor.get);
      visit(descriptor.set);
    }
  }
  Object.freeze(globalThis);
}
