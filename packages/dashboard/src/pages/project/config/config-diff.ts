/**
 * The override that turns one complete config into another, as dotted keys: a changed leaf (or a value whose
 * type changed) is set at its path, a key present only in `after` is set, a key gone from `after` is `null`
 * (so the server puts its default back or removes the entry). Config keys never contain dots (the format
 * forbids them), so a path is unambiguous. Equal configs give `{}`.
 *
 * @example
 * overrideBetween({ auth: { allowSignUp: true } }, { auth: { allowSignUp: false } }) // { "auth.allowSignUp": false }
 */
export function overrideBetween(before: unknown, after: unknown): Record<string, unknown> {
  const change: Record<string, unknown> = {};
  walk(before, after, "", change);
  return change;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function walk(before: unknown, after: unknown, path: string, change: Record<string, unknown>): void {
  const at = (key: string) => (path ? `${path}.${key}` : key);
  if (isObject(before) && isObject(after)) {
    for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) change[at(key)] = null;
    for (const [key, value] of Object.entries(after)) {
      if (Object.hasOwn(before, key)) walk(before[key], value, at(key), change);
      else change[at(key)] = value;
    }
    return;
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) change[path] = after;
}
