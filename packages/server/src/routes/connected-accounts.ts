import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import { connectedAccountAccessTokenBody, connectedAccountAccessTokenResponse, connectedAccountList } from "@latchkey/protocol/schemas";
import { z } from "zod";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import type { AppDeps, RequestAuth } from "../http/context.js";
import { ANY_ACCESS, defineRoute } from "../http/route.js";
import { namedUser } from "../http/named-user.js";
import { findProjectProvider, providerClient } from "../oauth/project-providers.js";
import { connectedAccountAccessToken } from "../services/oauth-tokens.js";

const TOKEN_ERRORS = [
  KnownErrors.OAuthProviderNotFoundOrNotEnabled,
  KnownErrors.OAuthAccessTokenNotAvailableWithSharedOAuthKeys,
  KnownErrors.OAuthConnectionNotConnectedToUser,
  KnownErrors.OAuthConnectionDoesNotHaveRequiredScope,
];

/**
 * `POST /connected-accounts/{user_id}/{provider_id}/access-token`: an access token for the provider account a
 * user linked, so an app can call the provider's API on the user's behalf (SPEC.md §3 "OAuth provider link").
 */
export const connectedAccountsRoutes = [
  defineRoute({
    method: "post",
    path: "/connected-accounts/:user_id/:provider_id/access-token",
    summary: "Get a provider access token for a connected account",
    description:
      "A stored access token with the scopes asked for (`scope`, space-separated), or a fresh one got with the stored refresh token. " +
      "Shared OAuth keys hand out no tokens. A client may only ask for its own user (`me`).",
    tags: ["Connected accounts"],
    access: ANY_ACCESS,
    request: { params: z.object({ user_id: z.string(), provider_id: z.string() }), body: connectedAccountAccessTokenBody },
    response: { status: 201, description: "The provider's access token.", schema: connectedAccountAccessTokenResponse },
    errors: TOKEN_ERRORS,
    handler: async (c, { auth, params, body }) => {
      const accessToken = await accessTokenFor(c.get("deps"), auth, params.user_id, params.provider_id, undefined, body.scope);
      return c.json({ access_token: accessToken }, 201);
    },
  }),
  defineRoute({
    method: "post",
    path: "/connected-accounts/:user_id/:provider_id/:provider_account_id/access-token",
    summary: "Get a provider access token for one connected account",
    description: "As the route without the account id, for users who linked several accounts of one provider (2.8.108).",
    tags: ["Connected accounts"],
    access: ANY_ACCESS,
    request: { params: z.object({ user_id: z.string(), provider_id: z.string(), provider_account_id: z.string() }), body: connectedAccountAccessTokenBody },
    response: { status: 201, description: "The provider's access token.", schema: connectedAccountAccessTokenResponse },
    errors: TOKEN_ERRORS,
    handler: async (c, { auth, params, body }) => {
      const accessToken = await accessTokenFor(c.get("deps"), auth, params.user_id, params.provider_id, params.provider_account_id, body.scope);
      return c.json({ access_token: accessToken }, 201);
    },
  }),
  defineRoute({
    method: "get",
    path: "/connected-accounts/:user_id",
    summary: "List a user's connected accounts",
    description: "The provider accounts the user linked that hand out access tokens (2.8.108).",
    tags: ["Connected accounts"],
    access: ANY_ACCESS,
    request: { params: z.object({ user_id: z.string() }) },
    response: { description: "The connected accounts.", schema: connectedAccountList },
    handler: async (c, { auth, params }) => {
      const userId = namedUser(auth, params.user_id, forbidden);
      const rows = await c
        .get("deps")
        .db.selectFrom("oauth_accounts")
        .select(["provider_config_id", "provider_account_id"])
        .where("project_id", "=", auth.project.id)
        .where("user_id", "=", userId)
        .where("allow_connected_accounts", "=", true)
        .orderBy("created_at")
        .execute();
      return { items: rows.map((row) => ({ user_id: userId, provider: row.provider_config_id, provider_account_id: row.provider_account_id })), is_paginated: false as const };
    },
  }),
];

async function accessTokenFor(deps: AppDeps, auth: RequestAuth, userIdParam: string, providerId: string, providerAccountId: string | undefined, scope: string | undefined): Promise<string> {
  const { db, env } = deps;
  const userId = namedUser(auth, userIdParam, forbidden);
  const config = renderProjectConfig(auth.project.config_override as ConfigObject);
  const provider = findProjectProvider(config, providerId);
  if (!provider) throw new KnownErrors.OAuthProviderNotFoundOrNotEnabled();
  // Shared keys belong to the server, not the project: their tokens are not the project's to hand out.
  if (provider.isShared && !env.allowSharedOAuthAccessTokens) throw new KnownErrors.OAuthAccessTokenNotAvailableWithSharedOAuthKeys();
  let query = db
    .selectFrom("oauth_accounts")
    .select("id")
    .where("project_id", "=", auth.project.id)
    .where("user_id", "=", userId)
    .where("provider_config_id", "=", provider.configId)
    .where("allow_connected_accounts", "=", true);
  if (providerAccountId !== undefined) query = query.where("provider_account_id", "=", providerAccountId);
  const link = await query.orderBy("created_at", "desc").executeTakeFirst();
  if (!link) throw new KnownErrors.OAuthConnectionNotConnectedToUser();
  return connectedAccountAccessToken(db, env, providerClient(env, config, provider), link.id, scope);
}

const forbidden = () => new HTTPException(403, { message: "Client can only access its own connected accounts." });
