import { z } from "zod";
import { unpaginatedList } from "./list-response.js";

/** Wire shapes of `/internal/api-keys` (admin): project key sets. */

export const internalApiKeyCreateBody = z.strictObject({
  description: z.string(),
  expires_at_millis: z.number(),
  has_publishable_client_key: z.boolean(),
  has_secret_server_key: z.boolean(),
  has_super_secret_admin_key: z.boolean(),
});
export type InternalApiKeyCreateBody = z.infer<typeof internalApiKeyCreateBody>;

export const internalApiKeyUpdateBody = z.strictObject({
  description: z.string().optional(),
  // Keys can only be revoked, never un-revoked.
  revoked: z.literal(true).optional(),
});
export type InternalApiKeyUpdateBody = z.infer<typeof internalApiKeyUpdateBody>;

const keySetBase = {
  id: z.string(),
  description: z.string(),
  expires_at_millis: z.number(),
  manually_revoked_at_millis: z.number().optional(),
  created_at_millis: z.number(),
};
const lastFour = z.strictObject({ last_four: z.string() });

/** A key set as listed and read: each key only by its last four characters. */
export const internalApiKeyRead = z.strictObject({
  ...keySetBase,
  publishable_client_key: lastFour.optional(),
  secret_server_key: lastFour.optional(),
  super_secret_admin_key: lastFour.optional(),
});
export type InternalApiKeyRead = z.infer<typeof internalApiKeyRead>;

/** The answer of `POST /internal/api-keys`, the only time the keys themselves are shown. */
export const internalApiKeyCreated = z.strictObject({
  ...keySetBase,
  publishable_client_key: z.string().optional(),
  secret_server_key: z.string().optional(),
  super_secret_admin_key: z.string().optional(),
});
export type InternalApiKeyCreated = z.infer<typeof internalApiKeyCreated>;

export const internalApiKeyListResponse = unpaginatedList(internalApiKeyRead);

/**
 * Latchkey's own (not the protocol's): `GET /internal/publishable-client-keys` lists the publishable keys of the
 * project's valid key sets in full. A publishable key is public, so the server keeps it to show again (keys made
 * before Latchkey kept them are not listed); secret and admin keys are only ever shown when made.
 */
export const internalPublishableClientKey = z.strictObject({
  id: z.string(),
  description: z.string(),
  publishable_client_key: z.string(),
  created_at_millis: z.number(),
  expires_at_millis: z.number(),
});
export type InternalPublishableClientKey = z.infer<typeof internalPublishableClientKey>;
export const internalPublishableClientKeyListResponse = unpaginatedList(internalPublishableClientKey);

export const internalApiKeyIdParams = z.strictObject({ api_key_id: z.string() });
