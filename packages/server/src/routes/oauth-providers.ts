import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import {
  oauthProviderClientList,
  oauthProviderClientRead,
  oauthProviderClientUpdate,
  oauthProviderListQuery,
  oauthProviderParams,
  oauthProviderServerCreate,
  oauthProviderServerList,
  oauthProviderServerRead,
  oauthProviderServerUpdate,
  successResponse,
  type OAuthProviderServerRead,
} from "@latchkey/protocol/schemas";
import { z } from "zod";
import { renderProjectConfig, type ConfigObject } from "../config/project-config.js";
import type { RequestAuth } from "../http/context.js";
import { ANY_ACCESS, defineRoute } from "../http/route.js";
import { namedUser } from "../http/named-user.js";
import {
  createOAuthAccount,
  deleteOAuthAccount,
  findOAuthAccount,
  listOAuthAccounts,
  renderOAuthAccount,
  updateOAuthAccount,
  type OAuthAccountRow,
} from "../services/oauth-accounts.js";

const TAGS = ["OAuth Providers"];

/**
 * `/oauth-providers`: a user's links to provider accounts (SPEC.md §3 "OAuth provider link"). Clients see and
 * change their own (`me`), without the provider's account id; servers see every user's and may create links.
 */
export const oauthProvidersRoutes = [
  defineRoute({
    method: "get",
    path: "/oauth-providers",
    summary: "List OAuth providers",
    description: "A client lists its own user's links (`user_id=me`); a server may leave `user_id` out to list every link of the project.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { query: oauthProviderListQuery },
    response: { description: "The links, oldest first.", schema: z.union([oauthProviderServerList, oauthProviderClientList]) },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, query }) => {
      const userId = auth.type === "client" || query.user_id !== undefined ? namedUser(auth, query.user_id, forbidden("list")) : undefined;
      const rows = await listOAuthAccounts(c.get("deps").db, auth.project.id, userId);
      return { items: render(auth, rows), is_paginated: false as const };
    },
  }),
  defineRoute({
    method: "post",
    path: "/oauth-providers",
    summary: "Create an OAuth provider",
    description:
      "Links a provider account to a user (servers only). 404 text for a `provider_config_id` the project has no entry for; 400 texts " +
      "when the user already signs in with that provider type (and `allow_sign_in` is on) or has that type's `account_id` linked.",
    tags: TAGS,
    access: ["server", "admin"],
    request: { body: oauthProviderServerCreate },
    response: { status: 201, description: "The new link.", schema: oauthProviderServerRead },
    errors: [KnownErrors.OAuthProviderAccountIdAlreadyUsedForSignIn, KnownErrors.UserNotFound],
    handler: async (c, { auth, body }) => {
      const userId = namedUser(auth, body.user_id, forbidden("create"));
      const config = configOf(auth);
      const row = await createOAuthAccount(c.get("deps").db, auth.project.id, config, {
        userId,
        providerConfigId: body.provider_config_id,
        accountId: body.account_id,
        email: body.email ?? null,
        allowSignIn: body.allow_sign_in,
        allowConnectedAccounts: body.allow_connected_accounts,
      });
      return c.json(renderOAuthAccount(config, row), 201);
    },
  }),
  defineRoute({
    method: "get",
    path: "/oauth-providers/:user_id/:provider_id",
    summary: "Get an OAuth provider",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: oauthProviderParams },
    response: { description: "The link.", schema: z.union([oauthProviderServerRead, oauthProviderClientRead]) },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, params }) => {
      const userId = namedUser(auth, params.user_id, forbidden("read"));
      const row = await findOAuthAccount(c.get("deps").db, auth.project.id, userId, params.provider_id);
      return renderOne(auth, row, params.provider_id, userId);
    },
  }),
  defineRoute({
    method: "patch",
    path: "/oauth-providers/:user_id/:provider_id",
    summary: "Update an OAuth provider",
    description: "Whether the link signs in and hands out access tokens; servers may also change its email and account id.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: oauthProviderParams, body: oauthProviderServerUpdate },
    clientRequest: { params: oauthProviderParams, body: oauthProviderClientUpdate },
    response: { description: "The updated link.", schema: z.union([oauthProviderServerRead, oauthProviderClientRead]) },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.OAuthProviderAccountIdAlreadyUsedForSignIn],
    handler: async (c, { auth, params, body }) => {
      const userId = namedUser(auth, params.user_id, forbidden("update"));
      const row = await updateOAuthAccount(c.get("deps").db, auth.project.id, configOf(auth), userId, params.provider_id, {
        allowSignIn: body.allow_sign_in,
        allowConnectedAccounts: body.allow_connected_accounts,
        email: "email" in body ? body.email : undefined,
        accountId: "account_id" in body ? body.account_id : undefined,
      });
      return renderOne(auth, row, params.provider_id, userId);
    },
  }),
  defineRoute({
    method: "delete",
    path: "/oauth-providers/:user_id/:provider_id",
    summary: "Delete an OAuth provider",
    description: "Unlinks the provider account; its stored tokens go with it.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: oauthProviderParams },
    response: { description: "Deleted.", schema: successResponse },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser],
    handler: async (c, { auth, params }) => {
      const userId = namedUser(auth, params.user_id, forbidden("delete"));
      if (!(await deleteOAuthAccount(c.get("deps").db, auth.project.id, userId, params.provider_id))) throw notFound(params.provider_id, userId);
      return { success: true } as const;
    },
  }),
];

const configOf = (auth: RequestAuth) => renderProjectConfig(auth.project.config_override as ConfigObject);

/** Clients never see the provider's account id. */
function forCaller(auth: RequestAuth, read: OAuthProviderServerRead) {
  if (auth.type !== "client") return read;
  const { account_id: _accountId, ...clientRead } = read;
  return clientRead;
}

function render(auth: RequestAuth, rows: OAuthAccountRow[]) {
  const config = configOf(auth);
  return rows.flatMap((row) => {
    const read = renderOAuthAccount(config, row);
    return read ? [forCaller(auth, read)] : [];
  });
}

function renderOne(auth: RequestAuth, row: OAuthAccountRow | undefined, providerId: string, userId: string) {
  const read = row && renderOAuthAccount(configOf(auth), row);
  if (!read) throw notFound(providerId, userId);
  return forCaller(auth, read);
}

const notFound = (providerId: string, userId: string) => new HTTPException(404, { message: `OAuth provider ${providerId} for user ${userId} not found` });

/** The protocol's 403 for a client naming another user, worded per action. */
const forbidden = (action: "list" | "create" | "read" | "update" | "delete") => () =>
  new HTTPException(403, { message: `Client can only ${action} OAuth providers for their own user.` });
