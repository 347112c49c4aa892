import { KnownErrors } from "@latchkey/protocol/errors";
import { jwksParams, jwksQuery, jwksResponse } from "@latchkey/protocol/schemas";
import { projectJwks } from "../crypto/access-tokens.js";
import { defineRoute } from "../http/route.js";
import { findProject } from "../services/projects.js";

/**
 * Verifiers may cache the key set for an hour, as the protocol's server lets them. Rotation relies on it: the
 * key that signs after a rotation was published as "next" long before (services/signing-keys.ts).
 */
const JWKS_CACHE_CONTROL = "public, max-age=3600";

/**
 * `GET /projects/{id}/.well-known/jwks.json`: the public keys that verify a project's access tokens, the
 * current and the next key (with `include_anonymous=true`, also those of its anonymous users' tokens, which
 * are signed with keys of their own). Public: no keys needed.
 */
export const jwksRoutes = [
  defineRoute({
    method: "get",
    path: "/projects/:project_id/.well-known/jwks.json",
    summary: "The project's public signing keys (JWKS)",
    description: "ES256 keys, current then next per audience. Cacheable for an hour.",
    tags: ["Projects"],
    access: "public",
    request: { params: jwksParams, query: jwksQuery },
    response: { description: "A JSON Web Key Set (RFC 7517).", schema: jwksResponse },
    errors: [KnownErrors.ProjectNotFound],
    handler: async (c, { params, query }) => {
      const project = await findProject(c.get("deps").db, params.project_id);
      if (!project) throw new KnownErrors.ProjectNotFound(params.project_id);
      // The one public, slowly changing resource verifiers are meant to cache; the pipeline keeps this header.
      c.header("cache-control", JWKS_CACHE_CONTROL);
      return projectJwks(c.get("deps").env, project.id, query.include_anonymous === "true");
    },
  }),
];
