/**
 * The config *format*: JSON objects whose keys may be dotted paths. A stored override such as
 * `{ "auth": { "allowSignUp": true }, "auth.oauth.providers.github": { … } }` is layered over the
 * defaults. These are the semantics of the protocol's config format:
 *
 * - `overrideConfig(a, b)`: b's keys win; a key in b also drops every key of a below it
 *   (`"auth"` in b removes `"auth.allowSignUp"` from a), but keeps keys above it.
 * - `normalizeConfig(c)`: applies keys shallowest first; a dotted key writes into the nested object;
 *   `null` deletes the key (so the default shows through); the result has no dots and no nulls.
 */

export type ConfigValue = string | number | boolean | null | ConfigValue[] | ConfigObject;
export interface ConfigObject {
  [key: string]: ConfigValue | undefined;
}
/** An override: keys may be dotted paths, `null` removes. */
export type ConfigOverride = ConfigObject;

export class ConfigNormalizationError extends Error {
  override name = "ConfigNormalizationError";
}

const KEY_PATTERN = /^[a-zA-Z0-9_:$][a-zA-Z_:$0-9-]*(?:\.[a-zA-Z0-9_:$][a-zA-Z_:$0-9-]*)*$/;

export function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** Own-property read: never walks the prototype chain (keys like `__proto__` are plain keys here). */
export function getOwn(obj: object, key: string): unknown {
  return hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** Own-property write that cannot touch a prototype, whatever the key. */
export function setOwn(obj: object, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, configurable: true, enumerable: true });
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Why `c` is not in the config format, or undefined. Wording is the protocol's. */
export function getInvalidConfigReason(c: unknown, configName = "config"): string | undefined {
  if (c === null || typeof c !== "object") return `${configName} must be a non-null object`;
  for (const [key, value] of Object.entries(c)) {
    if (value === undefined) continue;
    if (!KEY_PATTERN.test(key)) {
      return `All keys of ${configName} must consist of only alphanumeric characters, dots, underscores, colons, dollar signs, or hyphens and start with a character other than a hyphen (found: ${key})`;
    }
    const reason = getInvalidConfigValueReason(value, `${configName}.${key}`);
    if (reason) return reason;
  }
  return undefined;
}

function getInvalidConfigValueReason(value: unknown, valueName: string): string | undefined {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return undefined;
    case "object": {
      if (value === null) return undefined;
      if (Array.isArray(value)) {
        for (const [index, item] of value.entries()) {
          const reason = getInvalidConfigValueReason(item, `${valueName}[${index}]`);
          if (reason) return reason;
        }
        return undefined;
      }
      return getInvalidConfigReason(value, valueName);
    }
    default:
      return `${valueName} has an invalid value type ${typeof value} (value: ${String(value)})`;
  }
}

export function isConfigObject(c: unknown): c is ConfigObject {
  return getInvalidConfigReason(c) === undefined;
}

function withoutUndefined(c: ConfigObject): ConfigObject {
  const out: ConfigObject = {};
  for (const [key, value] of Object.entries(c)) if (value !== undefined) setOwn(out, key, value);
  return out;
}

/** Layers `overrides` over `base`, left to right (see the module comment). Pure. */
export function overrideConfig(base: ConfigObject, ...overrides: ConfigObject[]): ConfigObject {
  let result: ConfigObject = withoutUndefined(base);
  for (const override of overrides) {
    const incoming = withoutUndefined(override);
    const next: ConfigObject = {};
    for (const [key, value] of Object.entries(result)) {
      const shadowed = Object.keys(incoming).some((k) => key === k || key.startsWith(`${k}.`));
      if (!shadowed) setOwn(next, key, value);
    }
    for (const [key, value] of Object.entries(incoming)) setOwn(next, key, value);
    result = next;
  }
  return result;
}

export interface NormalizeOptions {
  /** A dotted key walks into a string, number or boolean. Default "throw". */
  onDotIntoNonObject?: "throw" | "ignore";
  /** A dotted key walks into a missing key. Default: same as `onDotIntoNonObject`. */
  onDotIntoMissing?: "throw" | "ignore" | "empty-object";
}

/** The normalized form of `c`: no dotted keys, no nulls. Pure; throws ConfigNormalizationError. */
export function normalizeConfig(c: ConfigObject, options: NormalizeOptions = {}): ConfigObject {
  const onDotIntoNonObject = options.onDotIntoNonObject ?? "throw";
  const onDotIntoMissing = options.onDotIntoMissing ?? onDotIntoNonObject;
  const dots = (key: string) => key.split(".").length - 1;
  const result: ConfigObject = {};
  const keys = Object.keys(c).sort((a, b) => dots(a) - dots(b));
  outer: for (const key of keys) {
    const value = getOwn(c, key) as ConfigValue | undefined;
    if (value === undefined) continue;
    const segments = key.split(".");
    const last = segments.pop() as string;
    let current: object = result;
    for (const segment of segments) {
      if (getOwn(current, segment) === undefined) {
        if (onDotIntoMissing === "throw") {
          throw new ConfigNormalizationError(`Tried to use dot notation to access ${JSON.stringify(key)}, but ${JSON.stringify(segment)} doesn't exist on the object (or is null).`);
        }
        if (onDotIntoMissing === "ignore") continue outer;
        setOwn(current, segment, {});
      }
      const next = getOwn(current, segment);
      if (typeof next !== "object" || next === null) {
        if (onDotIntoNonObject === "throw") {
          throw new ConfigNormalizationError(`Tried to use dot notation to access ${JSON.stringify(key)}, but ${JSON.stringify(segment)} is not an object.`);
        }
        continue outer;
      }
      current = next;
    }
    if (value === null) {
      if (getOwn(current, last) !== undefined) Reflect.deleteProperty(current, last);
    } else {
      setOwn(current, last, normalizeValue(value, options));
    }
  }
  return result;
}

function normalizeValue(value: ConfigValue, options: NormalizeOptions): ConfigValue {
  if (value === null) throw new ConfigNormalizationError("Tried to normalize a null value");
  if (Array.isArray(value)) return value.map((item) => normalizeValue(item, options));
  if (typeof value === "object") return normalizeConfig(value, options);
  return value;
}
