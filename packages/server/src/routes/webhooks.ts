import { svixTokenCreateBody, svixTokenRead } from "@latchkey/protocol/schemas";
import { defineRoute } from "../http/route.js";
import { issueSvixToken } from "../crypto/svix-tokens.js";

/**
 * `POST /webhooks/svix-token` (admin), the protocol's route for the webhook management portal: a token for the
 * Svix-compatible API that Latchkey serves under `/api/v1/webhooks/svix` (routes/webhooks-svix.ts), with the
 * project id as the Svix app id. Valid for 24 hours.
 */
export const webhooksRoutes = [
  defineRoute({
    method: "post",
    path: "/webhooks/svix-token",
    summary: "Get a token for the webhook management API",
    description:
      "A bearer token for the Svix-compatible API under `/api/v1/webhooks/svix` (point the `svix` client's `serverUrl` there); the Svix app id is the project id. Valid for 24 hours.",
    tags: ["Webhooks"],
    access: ["admin"],
    request: { body: svixTokenCreateBody },
    response: { status: 201, description: "The token.", schema: svixTokenRead },
    handler: (c, { auth }) => ({ token: issueSvixToken(c.get("deps").env.serverSecret, auth.project.id) }),
  }),
];
