// Each render of a warm sandbox starts from the state the libraries loaded into (issue 30 §2). Once they have
// loaded, every object reachable from the global object and from the modules templates may import (the
// language's built-ins, React, the React Email components, arktype's `type`, their prototypes, methods and
// nested objects) is sealed: nothing can be added to it or deleted from it, and no prototype changed. Their
// properties stay writable — freezing them breaks code that assigns over an inherited property (the "override
// mistake": `error.name = …` against a read-only Error.prototype.name) — so the value of each one is recorded,
// and `restore()` puts back every value a render changed (`Array.prototype.push = () => 0`, `React.Children.map =
// …`) before the next render starts. A template that makes a property read-only, so that it cannot be put back,
// gets `false` from `restore()`: the sandbox is then replaced by a fresh one.
//
// Left mutable, because the libraries add to them while they render: arktype's internals (its scope caches every
// definition it resolves, its registry `$ark` grows by one entry per compiled schema value; `type` itself is
// sealed, what hangs from it is not), and the contents of Maps and Sets. Those hold what templates' schemas
// compiled to; they are per project like the sandbox itself.
// Captured now, while they are the originals: `restore()` runs after a template may have replaced any of them,
// and calls only these, as plain functions (no method lookups, no iterators).
const { defineProperty, getOwnPropertyDescriptor, getPrototypeOf, seal, freeze } = Object;
const ownKeys = Reflect.ownKeys;

/**
 * Seals what templates can reach and returns `restore()`. `modules` are the objects `require()` hands to templates;
 * `growing` the objects that must stay extensible (neither sealed nor walked into); `shallow` objects are sealed
 * but not walked into.
 */
export function lockdown(modules, growing, shallow) {
  const skip = new Set(growing);
  const notInto = new Set(shallow);
  const seen = new Set();
  const pending = [];
  const visit = (value) => {
    if (value === null || (typeof value !== "object" && typeof value !== "function") || seen.has(value) || skip.has(value)) return;
    seen.add(value);
    pending.push(value);
  };
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (name === "globalThis") continue;
    const descriptor = getOwnPropertyDescriptor(globalThis, name);
    if (descriptor && "value" in descriptor) visit(descriptor.value);
  }
  // A module namespace's members are getters (esbuild's ES module interop): what they return is what a template
  // gets, e.g. `React.Children`.
  for (const namespace of modules) {
    visit(namespace);
    for (const key of ownKeys(namespace)) visit(namespace[key]);
  }

  // [object, key, value, …] for every writable data property, flat so that `restore()` needs no iterator.
  const records = [];
  while (pending.length > 0) {
    const value = pending.pop();
    visit(getPrototypeOf(value));
    for (const key of ownKeys(value)) {
      const descriptor = getOwnPropertyDescriptor(value, key);
      if (!descriptor) continue;
      if ("value" in descriptor) {
        if (descriptor.writable) records.push(value, key, descriptor.value);
        if (!notInto.has(value)) visit(descriptor.value);
      } else if (!notInto.has(value)) {
        visit(descriptor.get);
        visit(descriptor.set);
      }
    }
    seal(value);
  }
  freeze(globalThis);

  /** Puts back every recorded value; false when one cannot be put back (the sandbox must then be replaced). */
  return function restore() {
    let clean = true;
    for (let i = 0; i < records.length; i += 3) {
      const object = records[i];
      const key = records[i + 1];
      const value = records[i + 2];
      const now = getOwnPropertyDescriptor(object, key);
      if (now !== undefined && now.value === value && now.writable === true) continue;
      try {
        // A descriptor without a prototype: nothing a template did to Object.prototype can add to it.
        defineProperty(object, key, { __proto__: null, value, writable: true });
      } catch {
        clean = false;
      }
    }
    return clean;
  };
}
