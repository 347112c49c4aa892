import { z } from "zod";
import { userIdOrMe } from "./ids.js";
import { OAUTH_PROVIDER_IDS, isLooseEmail } from "./project-config.js";

/** A user's OAuth links (`/oauth-providers`, SPEC.md §3 "OAuth provider link"). */

export const oauthProviderClientRead = z.strictObject({
  user_id: z.string(),
  /** The link's own id (a uuid). */
  id: z.string(),
  /** Absent when the provider gave none (never null: the protocol's read has it optional, not nullable). */
  email: z.string().optional(),
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
/**
 * The protocol's e-mail check on a link (yup's `email()`): the HTML standard's production, and an empty string
 * passes it. `account_id` may be any string, empty included, as there.
 */
const linkEmail = z.string().refine((value) => value === "" || isLooseEmail(value), { message: "must be a valid email" });

export const oauthProviderServerUpdate = oauthProviderClientUpdate.extend({
  email: linkEmail.optional(),
  account_id: z.string().optional(),
});

export const oauthProviderServerCreate = z.strictObject({
  user_id: userIdOrMe,
  provider_config_id: z.string(),
  email: linkEmail.optional(),
  allow_sign_in: z.boolean(),
  allow_connected_accounts: z.boolean(),
  account_id: z.string(),
});

export const oauthProviderListQuery = z.object({ user_id: z.string().optional() });
export const oauthProviderParams = z.object({ user_id: z.string(), provider_id: z.string() });

export const oauthProviderClientList = z.strictObject({ items: z.array(oauthProviderClientRead), is_paginated: z.literal(false) });
export const oauthProviderServerList = z.strictObject({ items: z.array(oauthProviderServerRead), is_paginated: z.literal(false) });
