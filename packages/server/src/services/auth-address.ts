import { sql, type RawBuilder } from "kysely";

/**
 * Sign-in addresses match without regard to case (migration 0020): `Alice@Example.COM` signs in to the
 * account of `alice@example.com`. PostgreSQL folds both sides, so the expression index serves the lookup.
 */
export function sameAuthAddress(column: "value" | "contact_channels.value", address: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) = lower(${address})`;
}

/**
 * Order for the rare case of several matches — accounts created before migration 0020 whose addresses differ
 * only in case: the one typed exactly comes first, so each of them keeps signing in with its own spelling.
 */
export function exactAddressFirst(column: "value" | "contact_channels.value", address: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} = ${address}`;
}
