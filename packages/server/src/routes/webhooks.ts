import { sendTestWebhookBody, sendTestWebhookResponse, svixTokenCreateBody, svixTokenRead } from "@latchkey/protocol/schemas";
import { defineRoute } from "../http/route.js";
import { HTTPException } from "hono/http-exception";
import { issueSvixToken } from "../crypto/svix-tokens.js";
import { svixAppPortalToken } from "../services/webhook-svix-forwarder.js";
import { sendTestWebhook } from "../services/webhook-test-send.js";

/**
 * `POST /webhooks/svix-token` (admin), the protocol's route for the webhook management portal: a token for the
 * Svix-compatible API that Latchkey serves under `/api/v1/webhooks/svix` (routes/webhooks-svix.ts), with the
 * project id as the Svix app id. Valid for 24 hours. With a real Svix server configured (LATCHKEY_SVIX_URL), a
 * token of that server's app portal for the project's app instead (uid = the project id), as the reference does.
 */
export const webhooksRoutes = [
  defineRoute({
    method: "post",
    path: "/webhooks/svix-token",
    summary: "Get a token for the webhook management API",
    description:
      "A bearer token for the Svix-compatible API under `/api/v1/webhooks/svix` (point the `svix` client's `serverUrl` there); the Svix app id is the project id. Valid for 24 hours. " +
      "When the server hands webhooks to a real Svix server (LATCHKEY_SVIX_URL), a token of that server's app portal for the project's app (uid = the project id) instead.",
    tags: ["Webhooks"],
    access: ["admin"],
    request: { body: svixTokenCreateBody },
    response: { status: 201, description: "The token.", schema: svixTokenRead },
    handler: async (c, { auth }) => {
      const { env } = c.get("deps");
      if (!env.svix) return { token: issueSvixToken(env.serverSecret, auth.project.id) };
      const token = await svixAppPortalToken(env.svix, { id: auth.project.id, displayName: auth.project.display_name }).catch(() => undefined);
      if (!token) throw new HTTPException(502, { message: "The Svix server (LATCHKEY_SVIX_URL) did not hand out an app portal token; try again later." });
      return { token };
    },
  }),
  defineRoute({
    method: "post",
    path: "/internal/send-test-webhook",
    summary: "Send a test event to a webhook endpoint",
    description:
      "2.8.108's `sendTestWebhook`: one signed POST of a `stack.test` event to the endpoint (its id or uid), now; `success` is whether it answered 2xx, " +
      "`error_message` says what went wrong otherwise. Nothing is queued or retried. Not available while webhooks go to a real Svix server (LATCHKEY_SVIX_URL): its own dashboard sends tests.",
    tags: ["Webhooks"],
    access: ["admin"],
    request: { body: sendTestWebhookBody },
    response: { description: "How the test went.", schema: sendTestWebhookResponse },
    handler: async (c, { auth, body }) => {
      const { db, env } = c.get("deps");
      if (env.svix) return { success: false, error_message: "Webhooks go to a Svix server (LATCHKEY_SVIX_URL): send test events from its dashboard." };
      return sendTestWebhook(db, env, auth.project.id, body.endpoint_id);
    },
  }),
];
