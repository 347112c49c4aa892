import { z } from "zod";

/**
 * `{ items, is_paginated: false }`: the envelope of every list the protocol answers in one page (teams,
 * members, invitations, permissions, API keys, …).
 */
export function unpaginatedList<T extends z.ZodType>(item: T) {
  return z.strictObject({ items: z.array(item), is_paginated: z.literal(false) });
}
