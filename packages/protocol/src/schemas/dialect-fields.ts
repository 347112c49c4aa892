import { z } from "zod";
import type { Dialect } from "../dialects.js";

/**
 * Fields of a wire schema that only one protocol version has (issue 14). A schema is declared once, with
 * every field of both versions; the fields one version lacks are marked here, and the server's route layer
 * leaves them out of answers to that version and refuses them (as unknown properties) in its requests.
 */
export interface DialectFieldRule {
  /** The only version that sends or reads the field. */
  onlyIn: Dialect;
  /**
   * For a request field the other version lacks: the value it stands at for that version's requests
   * (`include_restricted`: 2.8.41 has no restricted users, so its user lists include them all).
   */
  otherwise?: unknown;
}

const rules = z.registry<DialectFieldRule>();

/** Marks a field as only the 2.8.108 protocol's; `otherwise` is its value in 2.8.41 requests. */
export function newerField<T extends z.ZodType>(schema: T, options: { otherwise?: unknown } = {}): T {
  const described = schema.meta({ description: appendNote(schema, "Only in the 2.8.108 protocol (x-hexclave-* headers).") }) as T;
  rules.add(described, { onlyIn: "2.8.108", ...options });
  return described;
}

/** Marks a field as only the 2.8.41 protocol's (renamed later: admin `full_logo_url`). */
export function olderField<T extends z.ZodType>(schema: T): T {
  const described = schema.meta({ description: appendNote(schema, "Only in the 2.8.41 protocol (x-stack-* headers).") }) as T;
  rules.add(described, { onlyIn: "2.8.41" });
  return described;
}

function appendNote(schema: z.ZodType, note: string): string {
  const existing = z.globalRegistry.get(schema)?.description;
  return existing ? `${existing} ${note}` : note;
}

export function dialectFieldRule(schema: z.ZodType): DialectFieldRule | undefined {
  return rules.get(schema);
}

/** Zod 4's definition of a schema, as far as the walks over schemas read it (here, and the server's body cast). */
export interface ZodDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  getter?: () => z.ZodType;
  /** A literal's values. */
  values?: unknown[];
}
export const zodDefOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

/** The schemas directly inside one (object fields apart), for the walks. */
function wrapped(def: ZodDef, side: "in" | "out"): z.ZodType[] {
  switch (def.type) {
    case "array":
      return [def.element!];
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "nonoptional":
    case "catch":
      return [def.innerType!];
    case "record":
      return [def.valueType!];
    case "union":
      return def.options!;
    case "intersection":
      return [def.left!, def.right!];
    case "pipe":
      return [side === "in" ? def.in! : def.out!];
    case "lazy":
      return [def.getter!()];
    default:
      return [];
  }
}

const marked = new WeakMap<z.ZodType, boolean>();

/** Whether any field inside the schema is marked (cached: most schemas have none, and then cost nothing). */
export function hasDialectFields(schema: z.ZodType, seen = new Set<z.ZodType>()): boolean {
  const cached = marked.get(schema);
  if (cached !== undefined) return cached;
  if (seen.has(schema)) return false;
  seen.add(schema);
  const def = zodDefOf(schema);
  const children = def.type === "object" ? Object.values(def.shape!) : [...wrapped(def, "in"), ...wrapped(def, "out")];
  const result = children.some((child) => rules.has(child) || hasDialectFields(child, seen));
  marked.set(schema, result);
  return result;
}

/**
 * The answer as the given version reads it: every field the schema marks as another version's is left out,
 * at any depth. Values are copied only where something is removed.
 */
export function answerForDialect(schema: z.ZodType, value: unknown, dialect: Dialect): unknown {
  const plan = answerPlan(schema, dialect);
  return plan ? plan(value) : value;
}

/** How one schema's answers are cut for one version; null where nothing inside is marked (the value passes as it is). */
type AnswerPlan = ((value: unknown) => unknown) | null;

// Worked out once per schema and version: the answers of the hot read paths (`/users/me`) are cut on every
// request, and walking the schema each time (registry lookups for every field) cost more than the copy.
const answerPlans: Record<Dialect, WeakMap<z.ZodType, AnswerPlan>> = { "2.8.41": new WeakMap(), "2.8.108": new WeakMap() };

function answerPlan(schema: z.ZodType, dialect: Dialect): AnswerPlan {
  const plans = answerPlans[dialect];
  const known = plans.get(schema);
  if (known !== undefined) return known;
  if (!hasDialectFields(schema)) {
    plans.set(schema, null);
    return null;
  }
  // A recursive schema meets itself while its plan is being made: it then runs the finished plan.
  let finished: AnswerPlan = null;
  plans.set(schema, (value) => (finished ? finished(value) : value));
  finished = makeAnswerPlan(schema, dialect);
  plans.set(schema, finished);
  return finished;
}

function makeAnswerPlan(schema: z.ZodType, dialect: Dialect): AnswerPlan {
  const def = zodDefOf(schema);
  let plan: (value: unknown) => unknown;
  if (def.type === "object") {
    const dropped = new Set<string>();
    const inner = new Map<string, (value: unknown) => unknown>();
    for (const [key, field] of Object.entries(def.shape!)) {
      const rule = rules.get(field);
      if (rule && rule.onlyIn !== dialect) dropped.add(key);
      else {
        const fieldPlan = answerPlan(field, dialect);
        if (fieldPlan) inner.set(key, fieldPlan);
      }
    }
    plan = (value) => {
      const source = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(source)) {
        if (dropped.has(key)) continue;
        const fieldPlan = inner.get(key);
        out[key] = fieldPlan ? fieldPlan(source[key]) : source[key];
      }
      return out;
    };
  } else if (def.type === "array") {
    const element = answerPlan(def.element!, dialect) ?? ((item: unknown) => item);
    plan = (value) => (Array.isArray(value) ? value.map(element) : element(value));
  } else if (def.type === "record") {
    const valuePlan = answerPlan(def.valueType!, dialect) ?? ((item: unknown) => item);
    plan = (value) => Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, child]) => [key, valuePlan(child)]));
  } else {
    // Wrappers and unions: each inner schema removes what it marks.
    const inners = wrapped(def, "out")
      .map((inner) => answerPlan(inner, dialect))
      .filter((inner): inner is (value: unknown) => unknown => inner !== null);
    if (inners.length === 0) return null;
    plan = (value) => inners.reduce((current, inner) => inner(current), value);
  }
  return (value) => (value === null || typeof value !== "object" ? value : plan(value));
}

/** Problems (`<path> contains unknown properties: a, b`) for request fields the version does not have. */
export function fieldsUnknownInDialect(schema: z.ZodType, value: unknown, dialect: Dialect, path: string): string[] {
  if (value === null || typeof value !== "object" || !hasDialectFields(schema)) return [];
  const def = zodDefOf(schema);
  if (def.type === "object") {
    const source = value as Record<string, unknown>;
    const unknown: string[] = [];
    const nested: string[] = [];
    for (const [key, field] of Object.entries(def.shape!)) {
      if (!(key in source)) continue;
      const rule = rules.get(field);
      if (rule && rule.onlyIn !== dialect) unknown.push(key);
      else nested.push(...fieldsUnknownInDialect(field, source[key], dialect, `${path}.${key}`));
    }
    return [...(unknown.length > 0 ? [`${path} contains unknown properties: ${unknown.join(", ")}`] : []), ...nested];
  }
  if (def.type === "array" && Array.isArray(value)) return value.flatMap((item, index) => fieldsUnknownInDialect(def.element!, item, dialect, `${path}[${index}]`));
  return wrapped(def, "in").flatMap((inner) => fieldsUnknownInDialect(inner, value, dialect, path));
}

/**
 * The request part with the values the version's requests stand at for fields it lacks (`otherwise`), set
 * where the request left them out. Top-level fields of an object schema only (query strings, bodies).
 */
export function withDialectDefaults(schema: z.ZodType, value: unknown, dialect: Dialect): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value) || !hasDialectFields(schema)) return value;
  const def = zodDefOf(schema);
  if (def.type !== "object") return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(def.shape!)) {
    const rule = rules.get(field);
    if (!rule || rule.onlyIn === dialect || rule.otherwise === undefined || key in (value as object)) continue;
    out ??= { ...(value as Record<string, unknown>) };
    out[key] = rule.otherwise;
  }
  return out ?? value;
}

/**
 * Names of the fields inside a schema that only the given version has, and of those it has unmarked (a
 * name can be one version's in one object and both versions' in another). For tests that check traffic.
 */
export function fieldNamesByVersion(schema: z.ZodType, onlyIn: Dialect, found = { marked: new Set<string>(), unmarked: new Set<string>() }, seen = new Set<z.ZodType>()) {
  if (seen.has(schema)) return found;
  seen.add(schema);
  const def = zodDefOf(schema);
  if (def.type === "object") {
    for (const [key, field] of Object.entries(def.shape!)) {
      const rule = rules.get(field);
      if (rule?.onlyIn === onlyIn) found.marked.add(key);
      else if (!rule) found.unmarked.add(key);
      fieldNamesByVersion(field, onlyIn, found, seen);
    }
  } else {
    for (const inner of [...wrapped(def, "in"), ...wrapped(def, "out")]) fieldNamesByVersion(inner, onlyIn, found, seen);
  }
  return found;
}
