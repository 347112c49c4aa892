import type { Context } from "hono";
import { KnownErrors } from "@latchkey/protocol/errors";
import { alternativesOf, fieldsUnknownInDialect, withDialectDefaults } from "@latchkey/protocol/schemas";
import type { z } from "zod";
import type { AppEnv } from "./context.js";
import { castLikeTheProtocol, type Cast } from "./protocol-cast.js";
import { parseAlternatives } from "./validate-alternatives.js";

type Parts = { body?: z.ZodType; query?: z.ZodType; params?: z.ZodType };
type Parsed<P extends Parts> = { [K in keyof P]: P[K] extends z.ZodType ? z.output<P[K]> : never };

/**
 * Validates the request against protocol schemas. Every problem of every part is reported in one
 * SCHEMA_ERROR whose message has the protocol's format:
 *   Request validation failed on <METHOD> <path>:
 *     - <path> <problem>
 */
export function validate<P extends Parts>(c: Context<AppEnv>, parts: P): Parsed<P> {
  return validateRequest(c, parts);
}

/**
 * `validate`, for declared routes (http/route.ts): `requireUser` adds the protocol's line for a route whose
 * request schema requires a signed-in user and got none, reported with the other problems.
 */
export function validateRequest<P extends Parts>(c: Context<AppEnv>, parts: P, options: { requireUser?: boolean } = {}): Parsed<P> {
  const input: Record<string, unknown> = {
    body: c.get("body"),
    query: queryOf(c.req.url),
    params: c.req.param(),
  };
  const output: Record<string, unknown> = {};
  const problems: string[] = options.requireUser ? ["auth.user must be defined"] : [];
  for (const part of ["params", "query", "body"] as const) {
    const schema = parts[part];
    if (!schema) continue;
    if (input[part] === undefined && part === "body") {
      // A route whose body may be left out (`POST /auth/cli`) declares an optional schema.
      if (!schema.safeParse(undefined).success) problems.push("body must be defined");
      continue;
    }
    if (part !== "body" && isEmpty(input[part]) && isFieldlessObject(schema)) {
      output[part] = {};
      continue;
    }
    const unstorable = unstorableText(part, input[part]);
    if (unstorable) {
      problems.push(unstorable);
      continue;
    }
    // Fields only the other protocol version has are unknown to this request's version (issue 14).
    const dialect = c.get("dialect");
    const otherVersionFields = fieldsUnknownInDialect(schema, input[part], dialect, part);
    if (otherVersionFields.length > 0) {
      problems.push(...otherVersionFields);
      continue;
    }
    const alternatives = alternativesOf(schema);
    if (alternatives) {
      const result = parseAlternatives(part, alternatives, input[part], describeIssue);
      if (result.success) output[part] = result.data;
      else problems.push(result.problem);
      continue;
    }
    // A body's values are cast to their fields' types first, as the protocol's validator casts them.
    const casts: Cast[] = [];
    const withDefaults = withDialectDefaults(schema, input[part], dialect);
    const value = part === "body" ? castLikeTheProtocol(schema, withDefaults, casts) : withDefaults;
    const result = schema.safeParse(value, { reportInput: true });
    if (result.success) output[part] = result.data;
    else problems.push(...inFieldOrder(result.error.issues).map((issue) => withCastOrigin(describeIssue(part, issue), issue, casts)));
  }
  if (problems.length > 0) {
    // A problem of several lines (a body matching none of its shapes) keeps its lines under its first one.
    const lines = problems.map((p) => `  - ${p.replaceAll("\n", "\n  ")}`).join("\n");
    throw new KnownErrors.SchemaError(`Request validation failed on ${c.req.method} ${new URL(c.req.url).pathname}:\n${lines}`);
  }
  return output as Parsed<P>;
}

/** Whether a query or params object has no keys (most requests have no query string). */
function isEmpty(value: unknown): boolean {
  for (const _ in value as object) return false;
  return true;
}

const fieldless = new WeakMap<z.ZodType, boolean>();

/**
 * An object schema with no fields and no refinements (the query of most routes): an empty object passes it as
 * an empty object, whatever it says of unknown keys, so checking one is skipped.
 */
function isFieldlessObject(schema: z.ZodType): boolean {
  let known = fieldless.get(schema);
  if (known === undefined) {
    const def = schema._zod.def as { type: string; shape?: object; checks?: unknown[] };
    known = def.type === "object" && Object.keys(def.shape ?? {}).length === 0 && (def.checks ?? []).length === 0;
    fieldless.set(schema, known);
  }
  return known;
}

/** The query string's parameters (the last of repeated ones); most requests have none, and skip parsing a URL. */
function queryOf(url: string): Record<string, string> {
  const start = url.indexOf("?");
  return start < 0 ? {} : Object.fromEntries(new URLSearchParams(url.slice(start + 1)));
}

// PostgreSQL text and jsonb cannot hold U+0000 and jsonb refuses unpaired surrogates; such input is a
// client error for every route, found here before it could reach the database as a 500.
const UNSTORABLE = /\u0000|[\ud800-\udfff]/u;

/**
 * The first string (or key) in a request part that the database could not store, as a problem line.
 * Iterative with parent links, so nesting as deep as the JSON parser allows costs linear time.
 */
function unstorableText(root: string, value: unknown): string | undefined {
  interface Node { value: unknown; key?: PropertyKey; parent?: Node }
  const pathOf = (node: Node) => {
    const path: PropertyKey[] = [];
    for (let n: Node | undefined = node; n?.parent; n = n.parent) path.push(n.key!);
    return formatPath(root, path.reverse());
  };
  const stack: Node[] = [{ value }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const current = node.value;
    if (typeof current === "string") {
      if (UNSTORABLE.test(current)) return `${pathOf(node)} must not contain null characters or unpaired surrogates`;
    } else if (typeof current === "object" && current !== null && !(current instanceof Uint8Array)) {
      for (const [key, child] of Object.entries(current)) {
        if (UNSTORABLE.test(key)) return `${pathOf(node)} must not contain null characters or unpaired surrogates`;
        stack.push({ value: child, key: Array.isArray(current) ? Number(key) : key, parent: node });
      }
    }
  }
  return undefined;
}

/**
 * A field that its object's refinement requires (`team_id` unless `user_id` is given; the issue is marked
 * `params.requiredField`) is reported where a plain required field would be: before the object's unknown
 * properties, which zod reports ahead of its refinements.
 */
function inFieldOrder(issues: z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const required = issues.filter((issue) => issue.code === "custom" && issue.params?.requiredField === true);
  const unknownAt = issues.findIndex((issue) => issue.code === "unrecognized_keys" && issue.path.length === 0);
  if (required.length === 0 || unknownAt < 0) return issues;
  const rest = issues.filter((issue) => !required.includes(issue));
  const at = rest.findIndex((issue) => issue.code === "unrecognized_keys" && issue.path.length === 0);
  return [...rest.slice(0, at), ...required, ...rest.slice(at)];
}

export function formatPath(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const segment of path) out += typeof segment === "number" ? `[${segment}]` : `.${String(segment)}`;
  return out;
}

/** One problem in the wording the protocol's validator uses, so clients see familiar messages. */
export function describeIssue(root: string, issue: z.core.$ZodIssue): string {
  const path = formatPath(root, issue.path);
  // A few of the protocol's messages are whole sentences without the field's path (a trusted domain's scheme).
  if (issue.code === "custom" && issue.params?.withoutPath === true) return issue.message;
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return `${path} must be defined`;
      if (issue.input === null) return `${path} cannot be null`;
      return `${path} must be a \`${yupTypeName(issue.expected)}\` type, but the final value was: \`${printValue(issue.input)}\`.`;
    case "unrecognized_keys":
      return `${path} contains unknown properties: ${issue.keys.join(", ")}`;
    case "too_big":
      if (issue.origin === "string") return `${path} must be at most ${issue.maximum} characters`;
      if (issue.origin === "array") return `${path} field must have less than or equal to ${issue.maximum} items`;
      return issue.inclusive === false ? `${path} must be less than ${issue.maximum}` : `${path} must be less than or equal to ${issue.maximum}`;
    case "too_small":
      if (issue.origin === "string") return issue.minimum === 1 ? `${path} must not be empty` : `${path} must be at least ${issue.minimum} characters`;
      if (issue.origin === "array") return `${path} field must have at least ${issue.minimum} items`;
      return issue.inclusive === false ? `${path} must be greater than ${issue.minimum}` : `${path} must be greater than or equal to ${issue.minimum}`;
    case "invalid_format":
      if (issue.format === "email") return `${path} must be a valid email`;
      if (issue.format === "url") return `${path} must be a valid URL`;
      if (issue.format === "uuid") return `${path} must be a valid UUID`;
      return `${path} ${issue.message}`;
    case "invalid_value":
      return `${path} must be one of the following values: ${issue.values.map(String).join(", ")}`;
    case "not_multiple_of":
      return issue.divisor === 1 ? `${path} must be an integer` : `${path} must be a multiple of ${issue.divisor}`;
    default:
      return `${path} ${issue.message}`;
  }
}

/**
 * A type problem of a value the cast changed names what was sent, as the protocol's words do: "… the final value
 * was: `NaN` (cast from the value `"abc"`)."
 */
function withCastOrigin(problem: string, issue: z.core.$ZodIssue, casts: readonly Cast[]): string {
  if (issue.code !== "invalid_type" || casts.length === 0 || !problem.endsWith("`.")) return problem;
  const cast = casts.find((candidate) => samePath(candidate.path, issue.path));
  return cast ? `${problem.slice(0, -1)} (cast from the value \`${printValue(cast.original)}\`).` : problem;
}

function samePath(a: readonly PropertyKey[], b: readonly PropertyKey[]): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index]);
}

function yupTypeName(expected: string): string {
  if (expected === "int") return "number";
  if (expected === "record") return "object";
  return expected;
}

function printValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return `${value}n`;
  if (Array.isArray(value) || (typeof value === "object" && value !== null)) {
    try {
      return JSON.stringify(value, undefined, 2);
    } catch {
      // Nesting deep enough to exhaust the stack is client input too: describe it, never fail on it.
      return Array.isArray(value) ? "[deeply nested array]" : "[deeply nested object]";
    }
  }
  return String(value);
}
