import type { IncomingMessage, ServerResponse } from "node:http";
import { Hono } from "hono";
import type { Logger } from "pino";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { AppEnv } from "../http/context.js";
import { devOidcRequestListener } from "./listener.js";
import { createDevOidcProvider } from "./provider.js";
import { timedFirstUse } from "../start-phases.js";

/** Where Latchkey serves its development OpenID provider; the issuer is `${publicUrl}${DEV_OAUTH_PATH}`. */
export const DEV_OAUTH_PATH = "/dev/oauth";

/**
 * `/dev/oauth/*` (dev mode only, outside /api/v1, 404 otherwise): the development OpenID provider that the
 * `shared` OAuth providers use when the server has no credentials for them (provider.ts), so "Continue
 * with GitHub" works on a fresh machine. Created on the first request; its state lives in this process.
 *
 * oidc-provider is a Node (Koa) application: it gets the raw request and response of @hono/node-server,
 * answers on them itself, and Hono is told the response is already sent.
 */
export function devOAuthRoutes() {
  let listener: Promise<ReturnType<typeof devOidcRequestListener>> | undefined;

  return new Hono<AppEnv>().all(`${DEV_OAUTH_PATH}/*`, async (c) => {
    const { env, log } = c.get("deps");
    if (!env.devMode) return c.notFound();
    const { incoming, outgoing } = (c.env ?? {}) as { incoming?: IncomingMessage; outgoing?: ServerResponse };
    if (!incoming || !outgoing) return c.text("The development OpenID provider is served only by the Node server.", 501);

    // Not at start: oidc-provider (and Koa) load on the first request here (a debug line says how long it took).
    listener ??= startListener(`${env.publicUrl}${DEV_OAUTH_PATH}`, env.oauthDevClientSecret, log);
    await (await listener)(incoming, outgoing);

    // @hono/node-server's marker: the answer went out on `outgoing`, write nothing more. (It must be this very
    // object: a Response made now is the server's own lightweight kind, which does not honour the marker.)
    return RESPONSE_ALREADY_SENT;
  });

  function startListener(issuer: string, clientSecret: string, log: Logger) {
    const onError = (error: unknown) => log.error({ err: error }, "development OpenID provider failed");
    const started = timedFirstUse(log, "development OpenID provider", () =>
      createDevOidcProvider({ issuer, clientSecret, onServerError: onError }).then((provider) => {
        // Its endpoint URLs come from the request; behind a TLS-terminating proxy they must say https too.
        provider.proxy = true;
        return devOidcRequestListener(provider, { onError });
      }),
    );
    // A failed start is retried by the next request rather than remembered.
    started.catch(() => {
      if (listener === started) listener = undefined;
    });
    return started;
  }
}
