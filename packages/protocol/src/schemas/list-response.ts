import { z } from "zod";

/**
 * `{ items, is_paginated: false }`: the envelope of every list the protocol answers in one page (teams,
 * members, invitations, permissions, API keys, …).
 */
export function unpaginatedList<T extends z.ZodType>(item: T) {
  return z.strictObject({ items: z.array(item), is_paginated: z.literal(false) });
}

/** A query-string page size: an integer of at least 1, with the protocol's wording for each problem. */
export const queryPageSize = z.string().transform((value, ctx) => {
  const trimmed = value.replace(/\s/g, "");
  const number = trimmed === "" ? Number.NaN : Number(trimmed);
  const problem = Number.isNaN(number)
    ? `must be a \`number\` type, but the final value was: \`NaN\` (cast from the value \`${JSON.stringify(value)}\`).`
    : !Number.isInteger(number)
      ? "must be an integer"
      : number < 1
        ? "must be greater than or equal to 1"
        : !Number.isSafeInteger(number)
          ? `must be less than or equal to ${Number.MAX_SAFE_INTEGER}`
          : undefined;
  if (problem === undefined) return number;
  ctx.addIssue({ code: "custom", message: problem });
  return z.NEVER;
});

/** `{ items, is_paginated: true, pagination: { next_cursor } }`: a list answered a page at a time. */
export function paginatedList<T extends z.ZodType>(item: T) {
  return z.strictObject({ items: z.array(item), is_paginated: z.literal(true), pagination: z.strictObject({ next_cursor: z.string().nullable() }) });
}
