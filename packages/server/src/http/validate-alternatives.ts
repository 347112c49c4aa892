import { alternativeRule } from "@latchkey/protocol/schemas";
import type { z } from "zod";

/**
 * A body declared with `bodyAlternatives` (protocol schemas/body-alternatives.ts), checked as the protocol's
 * reference checks one: each shape in turn, the first that fits is the body. When none fits, one problem lists
 * every shape's own, each shape's problems one per line and each level indented two more spaces:
 *
 *   body is not matched by any of the provided schemas:
 *     Schema 0:
 *       body.html must be defined
 *
 * Each shape is parsed on its own rather than through zod's union, whose report depends on which shapes failed
 * how (a single shape with only soft failures is reported alone).
 */
export function parseAlternatives(
  root: string,
  alternatives: readonly z.ZodObject[],
  input: unknown,
  describe: (root: string, issue: z.core.$ZodIssue) => string,
): { success: true; data: unknown } | { success: false; problem: string } {
  if (input === null) return { success: false, problem: `${root} cannot be null` };
  const reports: string[][] = [];
  for (const alternative of alternatives) {
    const result = alternative.safeParse(input, { reportInput: true });
    if (result.success) return { success: true, data: result.data };
    reports.push(problemsOf(root, alternative, result.error.issues, describe));
  }
  const lines = reports.flatMap((problems, i) => [`Schema ${i}:`, ...problems.map((problem) => indent(problem))]);
  return { success: false, problem: [`${root} is not matched by any of the provided schemas:`, ...lines.map((line) => indent(line))].join("\n") };
}

/**
 * One shape's problems in the reference's order: its fields' (zod reports them in the shape's field order, as
 * the reference does), then its unknown properties, named twice by a shape that extends a base (see
 * `extendedAlternative`).
 */
function problemsOf(root: string, alternative: z.ZodObject, issues: z.core.$ZodIssue[], describe: (root: string, issue: z.core.$ZodIssue) => string): string[] {
  const isUnknown = (issue: z.core.$ZodIssue) => issue.code === "unrecognized_keys" && issue.path.length === 0;
  const fields = issues.filter((issue) => !isUnknown(issue)).map((issue) => describe(root, issue));
  const unknown = issues.filter(isUnknown).map((issue) => describe(root, issue));
  return [...fields, ...unknown, ...(alternativeRule(alternative).extendsBase ? unknown : [])];
}

/** Two more spaces before every line of a (possibly multi-line) text. */
function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}
