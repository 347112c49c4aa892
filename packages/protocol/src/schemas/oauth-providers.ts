import { z } from "zod";
import { OAUTH_PROVIDER_IDS } from "./project-config.js";

/** A user's OAuth links (`/oauth-providers`, SPEC.md §3 "OAuth provider link"). */

export const oauthProviderClientRead = z.strictObject({
  user_id: z.string(),
  /** The link's own id (a uuid). */
  id: z.string(),
  email: z.string().nullable().optional(),
  provider_config_id: z.string(),
  type: z.enum(OAUTH_PROVIDER_IDS),
  allow_sign_in: z.boolean(),
  allow_connected_accounts: z.boolean(),
});
export type OAuthProviderClientRead = z.infer<typeof oauthProviderClientRead>;

export const oauthProviderServerRead = oauthProviderClientRead.extend({ account_id: z.string() });
export type OAuthProviderServerRead = z.infer<typeof oauthProviderServerRead>;

export const oauthProviderClientUpdate = z.strictObject({
  allow_sign_in: z.boolean().optional(),
  allow_connected_accounts: z.boolean().optional(),
});
export const oauthProviderServerUpdate = oauthProviderClientUpdate.extend({
  email: z.email().optional(),
  account_id: z.string().min(1).optional(),
});

export const oauthProviderServerCreate = z.strictObject({
  user_id: z.string(),
  provider_config_id: z.string(),
  email: z.email().optional(),
  allow_sign_in: z.boolean(),
  allow_connected_accounts: z.boolean(),
  account_id: z.string().min(1),
});

export const oauthProviderListQuery = z.object({ user_id: z.string().optional() });
export const oauthProviderParams = z.object({ user_id: z.string(), provider_id: z.string() });

export const oauthProviderClientList = z.strictObject({ items: z.array(oauthProviderClientRead), is_paginated: z.literal(false) });
export const oauthProviderServerList = z.strictObject({ items: z.array(oauthProviderServerRead), is_paginated: z.literal(false) });
