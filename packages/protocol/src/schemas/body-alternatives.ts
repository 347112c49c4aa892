import { z } from "zod";

/**
 * Request bodies that come in several shapes (`POST /emails/send-email`: `html`, `template_id` or `draft_id`;
 * `POST /emails/render-email`: a template and a theme, each by id or by source). The protocol's reference
 * checks such a body against each shape in turn, and when none fits it lists every shape's problems:
 *
 *   body is not matched by any of the provided schemas:
 *     Schema 0:
 *       body.html must be defined
 *     Schema 1:
 *       …
 *
 * The server's validator (http/validate.ts) reports the alternatives declared here that way.
 */

export interface BodyAlternativeRule {
  /**
   * The reference builds some shapes by extending a common base object, and each of the two objects checks for
   * unknown properties: such a shape names its unknown properties twice, and the texts keep that.
   */
  extendsBase?: boolean;
}

const rules = new WeakMap<z.ZodType, BodyAlternativeRule>();
const unions = new WeakMap<z.ZodType, readonly z.ZodObject[]>();

/**
 * A shape made of a common `base` and the fields that make it this shape. The fields come first, as the
 * reference lists the problems of an extended object: its own fields', then the base's.
 */
export function extendedAlternative<B extends z.ZodRawShape, F extends z.ZodRawShape>(base: B, fields: F) {
  const shape = z.strictObject({ ...fields, ...base } as F & B);
  rules.set(shape, { extendsBase: true });
  return shape;
}

/** A body that must match one of `options` (tried in order; the first that fits is the body). */
export function bodyAlternatives<const T extends readonly [z.ZodObject, z.ZodObject, ...z.ZodObject[]]>(options: T): z.ZodUnion<T> {
  const union = z.union(options as unknown as readonly z.ZodType[]) as unknown as z.ZodUnion<T>;
  unions.set(union, options);
  return union;
}

/** The shapes of a body declared with `bodyAlternatives`, else undefined. */
export function alternativesOf(schema: z.ZodType): readonly z.ZodObject[] | undefined {
  return unions.get(schema);
}

export function alternativeRule(schema: z.ZodType): BodyAlternativeRule {
  return rules.get(schema) ?? {};
}
