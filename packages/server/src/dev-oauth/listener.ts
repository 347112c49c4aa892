import type { IncomingMessage, ServerResponse } from "node:http";
import { handleInteraction } from "./interaction.js";
import { errorPage, PAGE_HEADERS } from "./pages.js";
import { mountPathOf, type DevOidcProvider } from "./provider.js";

/**
 * A Node request listener for the development provider, for requests with the full path (`/dev/oauth/…`
 * inside Latchkey, `/…` for the standalone process): the sign-in pages are ours (interaction.ts), every
 * other path is oidc-provider's.
 *
 * oidc-provider routes on `req.url` relative to where it is mounted, and builds its URLs from the prefix
 * it finds in `req.originalUrl` (Express's convention, lib/helpers/oidc_context.js `urlFor`): both are set
 * here, so it works under any mount path without a framework in between.
 */
export function devOidcRequestListener(provider: DevOidcProvider, options: { onError?: (error: unknown) => void } = {}) {
  const mountPath = mountPathOf(provider.issuer);
  const oidcCallback = provider.callback();

  return async function devOidcRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? "/";
    const rest = url.slice(mountPath.length);
    if (!url.startsWith(mountPath) || (rest !== "" && !/^[/?]/.test(rest))) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
      return;
    }
    const relative = rest.startsWith("/") ? rest : `/${rest}`;
    const interaction = /^\/interaction\/([^/?]+)(?:\?.*)?$/.exec(relative);
    try {
      if (interaction) return await handleInteraction(provider, mountPath, interaction[1]!, req, res);
      Object.assign(req, { originalUrl: url, url: relative });
      return await oidcCallback(req, res);
    } catch (error) {
      // The caller's mistakes (an expired or replayed sign-in page) are shown; anything else is logged.
      const known = error as { statusCode?: number; error?: string; error_description?: string; expose?: boolean; message?: string };
      if (!known.expose) options.onError?.(error);
      if (res.headersSent) return void res.end();
      const status = known.expose && known.statusCode ? known.statusCode : 500;
      const description = known.expose ? (known.error_description ?? known.message) : "Something went wrong in the development provider.";
      res.writeHead(status, PAGE_HEADERS).end(errorPage(known.expose ? (known.error ?? "invalid_request") : "server_error", description));
    }
  };
}
