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

/** Zod 4's definition of a schema, as far as the walks below read it. */
interface Def {
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
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schemas directly inside one (object fields apart), for the walks. */
function wrapped(def: Def, side: "in" | "out"): z.ZodType[] {
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
  const def = defOf(schema);
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
  if (value === null || typeof value !== "object" || !hasDialectFields(schema)) return value;
  const def = defOf(schema);
  if (def.type === "object") {
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(source)) {
      const field = def.shape![key];
      if (!field) {
        out[key] = child;
        continue;
      }
      const rule = rules.get(field);
      if (rule && rule.onlyIn !== dialect) continue;
      out[key] = answerForDialect(field, child, dialect);
    }
    return out;
  }
  if (def.type === "array" && Array.isArray(value)) return value.map((item) => answerForDialect(def.element!, item, dialect));
  if (def.type === "record") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, child]) => [key, answerForDialect(def.valueType!, child, dialect)]));
  }
  // Wrappers and unions: each inner schema removes what it marks.
  return wrapped(def, "out").reduce<unknown>((current, inner) => answerForDialect(inner, current, dialect), value);
}

/** Problems (`<path> contains unknown properties: a, b`) for request fields the version does not have. */
export function fieldsUnknownInDialect(schema: z.ZodType, value: unknown, dialect: Dialect, path: string): string[] {
  if (value === null || typeof value !== "object" || !hasDialectFields(schema)) return [];
  const def = defOf(schema);
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
  const def = defOf(schema);
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
  const def = defOf(schema);
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
