import { Hono } from "hono";
import { internalApiKeyCreateBody, internalApiKeyUpdateBody } from "@latchkey/protocol/schemas";
import { requireAccess } from "../http/auth.js";
import type { AppEnv } from "../http/context.js";
import { validate } from "../http/validate.js";
import { createKeySet, deleteKeySet, getKeySet, listKeySets, updateKeySet, type KeyKind } from "../services/api-keys.js";

/** `/internal/api-keys` (admin): the project's key sets; plain keys are shown only in the create response. */
export function internalApiKeysRoutes() {
  return new Hono<AppEnv>()
    .get("/internal/api-keys", async (c) => {
      const auth = requireAccess(c, ["admin"]);
      const items = await listKeySets(c.get("deps").db, auth.project.id);
      return c.json({ items, is_paginated: false });
    })
    .post("/internal/api-keys", async (c) => {
      const auth = requireAccess(c, ["admin"]);
      const { body } = validate(c, { body: internalApiKeyCreateBody });
      const kinds: KeyKind[] = [];
      if (body.has_publishable_client_key) kinds.push("publishableClientKey");
      if (body.has_secret_server_key) kinds.push("secretServerKey");
      if (body.has_super_secret_admin_key) kinds.push("superSecretAdminKey");
      const created = await createKeySet(c.get("deps").db, auth.project.id, {
        description: body.description,
        expiresAt: new Date(body.expires_at_millis),
        kinds,
      });
      return c.json(created, 200);
    })
    .get("/internal/api-keys/:id", async (c) => {
      const auth = requireAccess(c, ["admin"]);
      return c.json(await getKeySet(c.get("deps").db, auth.project.id, c.req.param("id")));
    })
    .patch("/internal/api-keys/:id", async (c) => {
      const auth = requireAccess(c, ["admin"]);
      const { body } = validate(c, { body: internalApiKeyUpdateBody });
      return c.json(await updateKeySet(c.get("deps").db, auth.project.id, c.req.param("id"), body));
    })
    .delete("/internal/api-keys/:id", async (c) => {
      const auth = requireAccess(c, ["admin"]);
      await deleteKeySet(c.get("deps").db, auth.project.id, c.req.param("id"));
      return c.json({ success: true });
    });
}
