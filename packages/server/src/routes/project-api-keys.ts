import { KnownErrors } from "@latchkey/protocol/errors";
import {
  projectApiKeyCheckBody,
  projectApiKeyCreateBody,
  projectApiKeyIdParams,
  projectApiKeySchemas,
  projectApiKeyUpdateBody,
  teamApiKeyOwnerQuery,
  userApiKeyOwnerQuery,
} from "@latchkey/protocol/schemas";
import type { ApiKeyOwnerType } from "../crypto/project-api-key-format.js";
import { ANY_ACCESS, defineRoute, type Route } from "../http/route.js";
import { checkApiKey, createApiKey, getApiKey, listApiKeys, updateApiKey } from "../services/project-api-keys.js";

const SERVER_ACCESS = ["server", "admin"] as const;
const TAGS = ["API Keys"];

/**
 * `/user-api-keys` and `/team-api-keys` (SPEC.md §7 "API keys"): list (newest first), create, read and patch
 * (description, revoke) the keys of a user (`user_id`, `me`) or a team (`team_id`), and `check` a presented
 * key (server).
 */
export const projectApiKeysRoutes: Route[] = [...keyRoutes("user"), ...keyRoutes("team")];

function keyRoutes(type: ApiKeyOwnerType): Route[] {
  const base = `/${type}-api-keys`;
  const field = type === "user" ? "user_id" : "team_id";
  const ownerQuery = type === "user" ? userApiKeyOwnerQuery : teamApiKeyOwnerQuery;
  const schemas = projectApiKeySchemas(type);
  const ownerOf = (query: { user_id?: string } | { team_id: string }) => (query as Record<string, string | undefined>)[field];
  const ownerErrors =
    type === "user"
      ? [KnownErrors.UserNotFound, KnownErrors.CannotGetOwnUserWithoutUser]
      : [KnownErrors.TeamNotFound, KnownErrors.TeamMembershipNotFound, KnownErrors.TeamPermissionRequired, KnownErrors.UserAuthenticationRequired];
  const manage = type === "user" ? "A client manages only its own user's keys." : "A client's user needs `$manage_api_keys` in the team.";
  return [
    defineRoute({
      method: "get",
      path: base,
      summary: `List ${type} API keys`,
      description: `${manage} Newest first.`,
      tags: TAGS,
      access: ANY_ACCESS,
      request: { query: ownerQuery },
      response: { description: "The keys, newest first; each shows only its last four characters.", schema: schemas.list },
      errors: ownerErrors,
      handler: async (c, { auth, query }) => {
        const owner = ownerOf(query);
        // The protocol's own check, worded as it words it (a SCHEMA_ERROR without the usual request prefix).
        if (owner === undefined) throw new KnownErrors.SchemaError(`${field} is required for ${type} API keys`);
        return { items: await listApiKeys(c.get("deps").db, auth, { type, id: owner }), is_paginated: false } as const;
      },
    }),
    defineRoute({
      method: "post",
      path: base,
      summary: `Create a ${type} API key`,
      description:
        type === "user"
          ? `${manage} The whole key is in the answer, this once.`
          : "A client whose user does not hold `$manage_api_keys` in the team (member or not) gets API_KEY_NOT_FOUND. The whole key is in the answer, this once.",
      tags: TAGS,
      access: ANY_ACCESS,
      request: { body: projectApiKeyCreateBody(field) },
      response: { description: "The new key, with its whole value.", schema: schemas.created },
      errors: [...ownerErrors, KnownErrors.ApiKeyNotFound],
      handler: async (c, { auth, body }) =>
        createApiKey(c.get("deps").db, auth, { type, id: body[field] }, {
          description: body.description,
          expiresAtMillis: body.expires_at_millis,
          isPublic: body.is_public ?? false,
        }),
    }),
    defineRoute({
      method: "post",
      path: `${base}/check`,
      summary: `Check a ${type} API key`,
      description: "Whether a presented key is a live key of this kind.",
      tags: TAGS,
      access: SERVER_ACCESS,
      request: { body: projectApiKeyCheckBody },
      response: { description: "The key.", schema: schemas.read },
      errors: [KnownErrors.ApiKeyNotFound, KnownErrors.WrongApiKeyType, KnownErrors.ApiKeyExpired, KnownErrors.ApiKeyRevoked],
      handler: async (c, { auth, body }) => checkApiKey(c.get("deps").db, auth, type, body.api_key),
    }),
    defineRoute({
      method: "get",
      path: `${base}/:key_id`,
      summary: `Read a ${type} API key`,
      description: `${manage}${type === "user" ? " `user_id` is optional: the key names its owner." : ""}`,
      tags: TAGS,
      access: ANY_ACCESS,
      request: { params: projectApiKeyIdParams, query: ownerQuery },
      response: { description: "The key.", schema: schemas.read },
      errors: [...ownerErrors, KnownErrors.ApiKeyNotFound],
      handler: async (c, { auth, params, query }) => getApiKey(c.get("deps").db, auth, type, ownerOf(query), params.key_id),
    }),
    defineRoute({
      method: "patch",
      path: `${base}/:key_id`,
      summary: `Update a ${type} API key`,
      description: `${manage} \`revoked: true\` revokes the key; revoking it again keeps the first revocation time.`,
      tags: TAGS,
      access: ANY_ACCESS,
      request: { params: projectApiKeyIdParams, query: ownerQuery, body: projectApiKeyUpdateBody },
      response: { description: "The key.", schema: schemas.read },
      errors: [...ownerErrors, KnownErrors.ApiKeyNotFound],
      handler: async (c, { auth, params, query, body }) => updateApiKey(c.get("deps").db, auth, type, ownerOf(query), params.key_id, body),
    }),
  ];
}
