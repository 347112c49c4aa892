import { Hono, type Context } from "hono";
import { z } from "zod";
import { projectApiKeyCheckBody, projectApiKeyCreateBody, projectApiKeyUpdateBody } from "@latchkey/protocol/schemas";
import type { ApiKeyOwnerType } from "../crypto/project-api-key-format.js";
import { requireAccess } from "../http/auth.js";
import type { AppEnv, RequestAuth } from "../http/context.js";
import { validate } from "../http/validate.js";
import { checkApiKey, createApiKey, getApiKey, listApiKeys, updateApiKey, type KeyOwner } from "../services/project-api-keys.js";

const ANY_ACCESS = ["client", "server", "admin"] as const;

/**
 * `/user-api-keys` and `/team-api-keys` (SPEC.md §7 "API keys"): list, create, read and patch (description,
 * revoke) the keys of a user (`user_id`, `me`) or a team (`team_id`), and `check` a presented key (server).
 */
export function projectApiKeysRoutes() {
  return new Hono<AppEnv>().route("/user-api-keys", keyRoutes("user")).route("/team-api-keys", keyRoutes("team"));
}

function keyRoutes(type: ApiKeyOwnerType) {
  const field = type === "user" ? "user_id" : "team_id";
  // A client's own user is the default owner; everyone else names the owner.
  const ownerQuery = (auth: RequestAuth) => z.object({ [field]: type === "user" && auth.type === "client" ? z.string().optional() : z.string() });
  const owner = (c: Context<AppEnv>, auth: RequestAuth): KeyOwner => {
    const { query } = validate(c, { query: ownerQuery(auth) });
    return { type, id: query[field] as string | undefined };
  };
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const items = await listApiKeys(c.get("deps").db, auth, owner(c, auth));
      return c.json({ items, is_paginated: false }, 200);
    })
    .post("/", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { body } = validate(c, { body: projectApiKeyCreateBody(field) });
      const created = await createApiKey(c.get("deps").db, auth, { type, id: body[field] }, {
        description: body.description,
        expiresAtMillis: body.expires_at_millis,
        isPublic: body.is_public ?? false,
      });
      return c.json(created, 200);
    })
    .post("/check", async (c) => {
      const auth = requireAccess(c, ["server", "admin"]);
      const { body } = validate(c, { body: projectApiKeyCheckBody });
      return c.json(await checkApiKey(c.get("deps").db, auth, type, body.api_key), 200);
    })
    .get("/:key_id", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      return c.json(await getApiKey(c.get("deps").db, auth, owner(c, auth), c.req.param("key_id")), 200);
    })
    .patch("/:key_id", async (c) => {
      const auth = requireAccess(c, ANY_ACCESS);
      const { body } = validate(c, { body: projectApiKeyUpdateBody });
      return c.json(await updateApiKey(c.get("deps").db, auth, owner(c, auth), c.req.param("key_id"), body), 200);
    });
}
