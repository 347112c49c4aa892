import { zodDefOf, type ZodDef } from "@latchkey/protocol/schemas";
import type { z } from "zod";

/**
 * The protocol's validator (yup, never in strict mode) casts each value of a request body to its field's type
 * before testing it, and so does this, before zod tests the body:
 * - for a string field, a number or boolean becomes its text (`12` → `"12"`); objects and arrays stay as they are;
 * - for a boolean field, `"true"`, `"1"`, `1` (any case) become true and `"false"`, `"0"`, `0` false;
 * - for a number field, a string becomes its numeric value (blanks removed; `NaN` when it has none) and anything
 *   else that is not a number goes through `parseFloat`, so `true` or `{}` become `NaN`.
 * A value that did not cast to its type is then refused in the protocol's words, which name what was sent:
 * "… must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`)." — hence `casts`.
 * Unions (bodies of several shapes, metadata) are left as sent: which member's type applies is not known before
 * parsing.
 */

/** A value the cast changed, by its path in the body (for the refusal's "cast from" words). */
export interface Cast {
  path: readonly PropertyKey[];
  original: unknown;
}

/** Casts `value` for `schema`, copying only what changes; every change is appended to `casts`. */
export function castLikeTheProtocol(schema: z.ZodType, value: unknown, casts: Cast[]): unknown {
  const plan = planOf(schema);
  return plan ? plan(value, [], casts) : value;
}

type Plan = (value: unknown, path: PropertyKey[], casts: Cast[]) => unknown;

// Made once per schema: bodies are cast on every request, sign-in's among them.
const plans = new WeakMap<z.ZodType, Plan | null>();

function planOf(schema: z.ZodType): Plan | null {
  if (plans.has(schema)) return plans.get(schema)!;
  // A recursive schema meets itself while its plan is being made: it then runs the finished plan.
  let finished: Plan | null = null;
  plans.set(schema, (value, path, casts) => (finished ? finished(value, path, casts) : value));
  finished = makePlan(zodDefOf(schema));
  plans.set(schema, finished);
  return finished;
}

function makePlan(def: ZodDef): Plan | null {
  switch (def.type) {
    case "string":
    case "enum":
      return leaf(castToString);
    case "number":
      return leaf(castToNumber);
    case "boolean":
      return leaf(castToBoolean);
    case "literal":
      return literalPlan(def.values ?? []);
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "nonoptional":
    case "catch":
      return planOf(def.innerType!);
    case "pipe":
      return planOf(def.in!);
    case "lazy":
      return planOf(def.getter!());
    case "object":
      return objectPlan(def.shape!);
    case "array":
      return eachPlan(def.element!, (value) => Array.isArray(value));
    case "record":
      return eachPlan(def.valueType!, isPlainObject);
    default:
      return null;
  }
}

function leaf(cast: (value: unknown) => unknown): Plan {
  return (value, path, casts) => {
    if (value === undefined || value === null) return value;
    const cast_ = cast(value);
    if (!Object.is(cast_, value)) casts.push({ path: [...path], original: value });
    return cast_;
  };
}

/** A literal is cast as its values' type (`revoked: true` takes `"true"`). */
function literalPlan(values: unknown[]): Plan | null {
  const types = new Set(values.map((value) => typeof value));
  if (types.size !== 1) return null;
  const [type] = types;
  if (type === "boolean") return leaf(castToBoolean);
  if (type === "string") return leaf(castToString);
  if (type === "number") return leaf(castToNumber);
  return null;
}

function objectPlan(shape: Record<string, z.ZodType>): Plan | null {
  const fields = Object.entries(shape)
    .map(([key, schema]) => [key, planOf(schema)] as const)
    .filter((entry): entry is readonly [string, Plan] => entry[1] !== null);
  if (fields.length === 0) return null;
  return (value, path, casts) => {
    if (!isPlainObject(value)) return value;
    let copy: Record<string, unknown> | undefined;
    for (const [key, plan] of fields) {
      if (!Object.hasOwn(value, key)) continue;
      const cast = plan(value[key], [...path, key], casts);
      if (cast !== value[key]) (copy ??= { ...value })[key] = cast;
    }
    return copy ?? value;
  };
}

/** An array's elements or a record's values, each cast by the one schema. */
function eachPlan(schema: z.ZodType, applies: (value: unknown) => boolean): Plan | null {
  const plan = planOf(schema);
  if (!plan) return null;
  return (value, path, casts) => {
    if (!applies(value)) return value;
    const container = value as Record<string, unknown>;
    let copy: Record<string, unknown> | unknown[] | undefined;
    for (const key of Object.keys(container)) {
      const at = Array.isArray(container) ? Number(key) : key;
      const cast = plan(container[key], [...path, at], casts);
      if (cast !== container[key]) {
        copy ??= Array.isArray(container) ? [...container] : { ...container };
        // Defined, not assigned: a record's key may be `__proto__` (JSON makes it an own key).
        Object.defineProperty(copy, key, { value: cast, writable: true, enumerable: true, configurable: true });
      }
    }
    return copy ?? value;
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A value's text as JavaScript makes it, or undefined where that throws: a JSON object with a `toString` key (in
 * an array too) is client input, never a server error.
 */
function textOf(value: unknown): string | undefined {
  try {
    return String(value);
  } catch {
    return undefined;
  }
}

/** Numbers and booleans become their text; objects and arrays stay as they are (yup keeps them too). */
function castToString(value: unknown): unknown {
  if (typeof value === "string" || typeof value === "object") return value;
  return String(value);
}

function castToBoolean(value: unknown): unknown {
  if (typeof value === "boolean") return value;
  const text = textOf(value);
  if (text !== undefined && /^(true|1)$/i.test(text)) return true;
  if (text !== undefined && /^(false|0)$/i.test(text)) return false;
  return value;
}

function castToNumber(value: unknown): unknown {
  let parsed = value;
  if (typeof parsed === "string") {
    parsed = parsed.replace(/\s/g, "");
    if (parsed === "") return Number.NaN;
    parsed = Number(parsed);
  }
  if (typeof parsed === "number" && !Number.isNaN(parsed)) return parsed;
  // `parseFloat` reads the value's text: `[5]` is 5, `true` and `{}` are NaN.
  return parseFloat(textOf(parsed) ?? "");
}
