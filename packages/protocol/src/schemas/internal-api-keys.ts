import { z } from "zod";

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

export interface InternalApiKeyRead {
  id: string;
  description: string;
  expires_at_millis: number;
  manually_revoked_at_millis?: number;
  created_at_millis: number;
  publishable_client_key?: { last_four: string };
  secret_server_key?: { last_four: string };
  super_secret_admin_key?: { last_four: string };
}

export interface InternalApiKeyCreated extends Omit<InternalApiKeyRead, "publishable_client_key" | "secret_server_key" | "super_secret_admin_key"> {
  publishable_client_key?: string;
  secret_server_key?: string;
  super_secret_admin_key?: string;
}
