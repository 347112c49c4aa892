import { MAX_DISPLAY_NAME_LENGTH, metadataProblem, userServerCreateBody, userServerUpdateBody } from "@latchkey/protocol/schemas";
import { z } from "zod";

/**
 * The Users pages' forms: what a person types, checked before it is sent. The protocol's wire schemas of
 * `POST /users` and `PATCH /users/{id}` decide what the server accepts; these add what a form needs on top
 * (blank optional fields mean "not given") and say each problem in words.
 */

const create = userServerCreateBody.shape;
const blankToUndefined = (value: string) => value || undefined;

const displayName = z
  .string()
  .trim()
  .max(MAX_DISPLAY_NAME_LENGTH, `A name has at most ${MAX_DISPLAY_NAME_LENGTH} characters.`);

export const userCreateForm = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Enter the user's email address.")
    .pipe(z.email("Enter a valid email address, like ada@example.com."))
    .pipe(create.primary_email.unwrap().unwrap()),
  password: z
    .string()
    .max(70, "A password has at most 70 characters.")
    .transform(blankToUndefined)
    .pipe(create.password.unwrap().unwrap().optional()),
  displayName: displayName.transform(blankToUndefined).pipe(create.display_name.unwrap().unwrap().optional()),
});
export type UserCreateInput = z.input<typeof userCreateForm>;
export type UserCreateValues = z.output<typeof userCreateForm>;

/** A new display name; a blank one removes it. */
export const displayNameForm = z.object({
  displayName: displayName.transform((value) => value || null).pipe(userServerUpdateBody.shape.display_name.unwrap()),
});

/** Each field's first problem, by field name; empty when the form is valid. */
export function formErrors<T extends Record<string, unknown>>(error: z.ZodError): Partial<Record<keyof T, string>> {
  const errors: Partial<Record<keyof T, string>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as keyof T;
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * The metadata a text box holds, or why it cannot be saved: not JSON at all, or JSON the server would refuse
 * (too deep, too large, null characters). Blank means `null` (no metadata).
 */
export function parseMetadata(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (text.trim() === "") return { ok: true, value: null };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `This is not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const problem = metadataProblem(value);
  return problem ? { ok: false, problem: `The server cannot store this: metadata ${problem}.` } : { ok: true, value };
}

/** Metadata as the text box shows it: indented JSON, or blank for none. */
export function metadataText(value: unknown): string {
  return value === null || value === undefined ? "" : JSON.stringify(value, null, 2);
}
