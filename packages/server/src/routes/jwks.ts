import { Hono } from "hono";
import { KnownErrors } from "@latchkey/protocol/errors";
import { jwksQuery } from "@latchkey/protocol/schemas";
import { projectJwks } from "../crypto/access-tokens.js";
import type { AppEnv } from "../http/context.js";
import { validate } from "../http/validate.js";
import { findProject } from "../services/projects.js";

/** SPEC.md §9: verifiers cache the key set for 300 s. */
const JWKS_CACHE_CONTROL = "public, max-age=300";

/**
 * `GET /projects/{id}/.well-known/jwks.json`: the public keys that verify a project's access tokens
 * (with `include_anonymous=true`, also those of its anonymous users' tokens), including the keys of
 * previous server secrets so tokens signed before a rotation keep verifying. Public: no keys needed.
 */
export function jwksRoutes() {
  return new Hono<AppEnv>().get("/projects/:projectId/.well-known/jwks.json", async (c) => {
    const { query } = validate(c, { query: jwksQuery });
    const projectId = c.req.param("projectId");
    const project = await findProject(c.get("deps").db, projectId);
    if (!project) throw new KnownErrors.ProjectNotFound(projectId);
    const jwks = projectJwks(c.get("deps").env, project.id, query.include_anonymous === "true");
    // The one public, slowly changing resource verifiers are meant to cache; the pipeline keeps this header.
    return c.json(jwks, 200, { "cache-control": JWKS_CACHE_CONTROL });
  });
}

