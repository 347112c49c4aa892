/**
 * Freezes an object and everything it holds, for values every request shares (cached rows, rendered configs):
 * a change made by mistake throws instead of leaking into other requests. Dates and byte arrays are left as they
 * are (they cannot be frozen usefully, and typed arrays cannot be frozen at all).
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value) && !(value instanceof Date) && !ArrayBuffer.isView(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
