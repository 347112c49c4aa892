import type { z } from "zod";

/** Each field's first problem, by field name (the first step of the issue's path); empty when the form is valid. */
export function fieldErrors<K extends PropertyKey>(error: z.ZodError): Partial<Record<K, string>> {
  const errors: Partial<Record<K, string>> = {};
  for (const issue of error.issues) errors[issue.path[0] as K] ??= issue.message;
  return errors;
}
