import { metadataProblem } from "@latchkey/protocol/schemas";

/* Metadata (of users and teams) edited as JSON in a text box (components/metadata-field.tsx). */

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
