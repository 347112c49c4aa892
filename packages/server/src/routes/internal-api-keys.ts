import { KnownErrors } from "@latchkey/protocol/errors";
import {
  internalApiKeyCreateBody,
  internalApiKeyCreated,
  internalApiKeyIdParams,
  internalApiKeyListResponse,
  internalApiKeyRead,
  internalApiKeyUpdateBody,
  internalPublishableClientKeyListResponse,
  successResponse,
} from "@latchkey/protocol/schemas";
import { defineRoute } from "../http/route.js";
import { createKeySet, deleteKeySet, getKeySet, listKeySets, listReadablePublishableKeys, updateKeySet, type KeyKind } from "../services/api-keys.js";

const TAGS = ["Project keys"];
const ADMIN = ["admin"] as const;

/** `/internal/api-keys` (admin): the project's key sets; plain keys are shown only in the create response. */
export const internalApiKeysRoutes = [
  defineRoute({
    method: "get",
    path: "/internal/api-keys",
    summary: "List the project's key sets",
    description: "Newest first; each key only by its last four characters.",
    tags: TAGS,
    access: ADMIN,
    response: { description: "The key sets.", schema: internalApiKeyListResponse },
    handler: async (c, { auth }) => ({ items: await listKeySets(c.get("deps").db, auth.project.id), is_paginated: false }) as const,
  }),
  defineRoute({
    method: "post",
    path: "/internal/api-keys",
    summary: "Create a key set",
    description: "Generates the requested keys; the answer is the only time they are shown.",
    tags: TAGS,
    access: ADMIN,
    request: { body: internalApiKeyCreateBody },
    response: { description: "The new key set with its keys.", schema: internalApiKeyCreated },
    handler: async (c, { auth, body }) => {
      const kinds: KeyKind[] = [];
      if (body.has_publishable_client_key) kinds.push("publishableClientKey");
      if (body.has_secret_server_key) kinds.push("secretServerKey");
      if (body.has_super_secret_admin_key) kinds.push("superSecretAdminKey");
      return createKeySet(c.get("deps").db, auth.project.id, { description: body.description, expiresAt: new Date(body.expires_at_millis), kinds });
    },
  }),
  defineRoute({
    method: "get",
    path: "/internal/publishable-client-keys",
    summary: "List the project's publishable client keys",
    description:
      "Latchkey's own route. The publishable keys of the project's valid key sets, in full and newest first: a publishable key is public, so it can be shown again (the dashboard's Get started page). Keys made before Latchkey kept them are not listed. Secret server and admin keys are only ever shown when made.",
    tags: TAGS,
    access: ADMIN,
    response: { description: "The publishable keys.", schema: internalPublishableClientKeyListResponse },
    handler: async (c, { auth }) => ({ items: await listReadablePublishableKeys(c.get("deps").db, auth.project.id), is_paginated: false }) as const,
  }),
  defineRoute({
    method: "get",
    path: "/internal/api-keys/:api_key_id",
    summary: "Read a key set",
    tags: TAGS,
    access: ADMIN,
    request: { params: internalApiKeyIdParams },
    response: { description: "The key set.", schema: internalApiKeyRead },
    errors: [KnownErrors.ApiKeyNotFound],
    handler: async (c, { auth, params }) => getKeySet(c.get("deps").db, auth.project.id, params.api_key_id),
  }),
  defineRoute({
    method: "patch",
    path: "/internal/api-keys/:api_key_id",
    summary: "Update or revoke a key set",
    description: "`revoked: true` revokes every key of the set, for good.",
    tags: TAGS,
    access: ADMIN,
    request: { params: internalApiKeyIdParams, body: internalApiKeyUpdateBody },
    response: { description: "The updated key set.", schema: internalApiKeyRead },
    errors: [KnownErrors.ApiKeyNotFound],
    handler: async (c, { auth, params, body }) => updateKeySet(c.get("deps").db, auth.project.id, params.api_key_id, body),
  }),
  defineRoute({
    method: "delete",
    path: "/internal/api-keys/:api_key_id",
    summary: "Delete a key set",
    tags: TAGS,
    access: ADMIN,
    request: { params: internalApiKeyIdParams },
    response: { description: "Deleted.", schema: successResponse },
    errors: [KnownErrors.ApiKeyNotFound],
    handler: async (c, { auth, params }) => {
      await deleteKeySet(c.get("deps").db, auth.project.id, params.api_key_id);
      return { success: true } as const;
    },
  }),
];
