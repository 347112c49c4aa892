import { z } from "zod";

/** Client, client read-only and server metadata: any JSON value that PostgreSQL's jsonb can hold. */

// PostgreSQL text and jsonb cannot hold U+0000, and jsonb refuses unpaired surrogate escapes.
export const hasNul = (value: string) => value.includes("\u0000");
// In a `u` regular expression a surrogate pair reads as one code point, so this matches only unpaired halves.
const UNPAIRED_SURROGATE = /[\ud800-\udfff]/u;

/**
 * Metadata may be nested this deep at most. The protocol sets no bound, but a value must survive
 * `JSON.stringify` and PostgreSQL's jsonb parser, both of which recurse.
 */
export const MAX_METADATA_DEPTH = 1000;

/**
 * Metadata may take this many bytes as JSON at most (issue 17). The protocol sets no bound; this one keeps a
 * user row, read on every request, small, while leaving room for any reasonable app state.
 */
export const MAX_METADATA_BYTES = 100_000;

/** Why a JSON value cannot be stored as metadata, or undefined when it can. Iterative: depth is client input. */
export function metadataProblem(value: unknown): string | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  const badString = (s: string) => hasNul(s) || UNPAIRED_SURROGATE.test(s);
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current === "string") {
      if (badString(current)) return "must not contain null characters or unpaired surrogates";
    } else if (typeof current === "object" && current !== null) {
      if (depth >= MAX_METADATA_DEPTH) return `must not be nested more than ${MAX_METADATA_DEPTH} levels deep`;
      for (const [key, child] of Object.entries(current)) {
        if (badString(key)) return "must not contain null characters or unpaired surrogates";
        stack.push({ value: child, depth: depth + 1 });
      }
    }
  }
  if (value !== undefined && jsonBytesOver(value, MAX_METADATA_BYTES)) return `must not be larger than ${MAX_METADATA_BYTES} bytes as JSON`;
  return undefined;
}

function jsonBytesOver(value: unknown, max: number): boolean {
  const json = JSON.stringify(value) ?? "";
  // A UTF-16 unit takes at most 3 bytes in UTF-8: short strings need no encoding to be known small.
  if (json.length * 3 <= max) return false;
  return new TextEncoder().encode(json).length > max;
}

/** Any JSON value (null included), stored as jsonb. */
export const metadata = z.unknown().superRefine((value, ctx) => {
  const problem = metadataProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
