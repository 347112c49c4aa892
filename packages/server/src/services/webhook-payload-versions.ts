import { answerForDialect, teamServerRead, userServerRead } from "@latchkey/protocol/schemas";
import type { Dialect } from "@latchkey/protocol/dialects";
import { sql, type RawBuilder } from "kysely";
import type { z } from "zod";

/**
 * Which protocol version's shapes an endpoint's payloads carry (issue 29). The reference sends the 2.8.41 shapes
 * (its user object has no `is_restricted`, `restricted_*`, `country_code` or `risk_scores`), and so does every
 * endpoint by default; an endpoint of an app on the 2.8.108 SDK asks for that version's shapes with the metadata
 * entry `latchkey_payload_version: "2.8.108"`. Metadata, because it is Svix's own per-endpoint setting: the
 * official `svix` client and the dashboard set it unchanged, and it reads back as written.
 *
 * A message keeps its payload in both versions where they differ (`payload` the 2.8.41 one, which the
 * Svix-compatible API shows and a real Svix server is handed; `payload_2_8_108` the newer one), and each delivery
 * picks its endpoint's at the moment it is sent.
 */

export const PAYLOAD_VERSION_KEY = "latchkey_payload_version";
export const PAYLOAD_VERSIONS = ["2.8.41", "2.8.108"] as const satisfies readonly Dialect[];
export type PayloadVersion = (typeof PAYLOAD_VERSIONS)[number];
export const DEFAULT_PAYLOAD_VERSION: PayloadVersion = "2.8.41";

/** The refusal of a metadata value that names no version, or undefined when the metadata is fine. */
export function payloadVersionProblem(metadata: Record<string, string> | undefined): string | undefined {
  const value = metadata?.[PAYLOAD_VERSION_KEY];
  if (value === undefined || (PAYLOAD_VERSIONS as readonly string[]).includes(value)) return undefined;
  return `must be ${PAYLOAD_VERSIONS.join(" or ")}`;
}

/** The event data's protocol schema, for the events whose data is a protocol read shape. */
const DATA_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  "user.created": userServerRead,
  "user.updated": userServerRead,
  "team.created": teamServerRead,
  "team.updated": teamServerRead,
};

/**
 * An event's payload (`{ type, data }`, data with the fields of both versions) as each version reads it: `newer`
 * only when it differs from the 2.8.41 one (user events; the others are the same in both).
 */
export function versionedPayloads(type: string, data: unknown): { payload: { type: string; data: unknown }; newer: { type: string; data: unknown } | null } {
  const schema = DATA_SCHEMAS[type];
  const older = schema ? answerForDialect(schema, data, "2.8.41") : data;
  return { payload: { type, data: older }, newer: older === data ? null : { type, data } };
}

/**
 * SQL for the payload a delivery sends: the message's (`message` is its table alias) in the version the endpoint's
 * (`endpoint`) metadata asks for. Read when the delivery is sent, so a changed setting applies to retries too.
 */
export function payloadForEndpoint(message: string, endpoint: string): RawBuilder<unknown> {
  const older = sql.ref(`${message}.payload`);
  return sql`(case when ${sql.ref(`${endpoint}.metadata`)} ->> ${sql.lit(PAYLOAD_VERSION_KEY)} = '2.8.108' then coalesce(${sql.ref(`${message}.payload_2_8_108`)}, ${older}) else ${older} end)`;
}
