import type { Plugin } from "vite";
import { OAUTH_ICON_TYPES, oauthIconSvg } from "../packages/server/src/routes/oauth-icons.js";

/**
 * The providers' marks, which the sign-in buttons load from `<baseUrl>/oauth-icons/<type>.svg` as a Latchkey
 * server serves them: here Storybook serves the same files itself (next to iframe.html, where the stories' app
 * has its base URL, stories/support/story-app.ts), so a story requests nothing from another host.
 */
export function oauthIcons(): Plugin {
  return {
    name: "latchkey-story-oauth-icons",
    // `npm run storybook`.
    configureServer(server) {
      server.middlewares.use("/oauth-icons/", (request, response, next) => {
        const file = new URL(request.url ?? "/", "http://storybook").pathname.slice(1);
        const svg = file.endsWith(".svg") ? oauthIconSvg(file.slice(0, -".svg".length)) : undefined;
        if (svg) response.writeHead(200, { "content-type": "image/svg+xml" }).end(svg);
        else next();
      });
    },
    // `npm run build-storybook`: files of the build.
    generateBundle() {
      for (const type of OAUTH_ICON_TYPES) this.emitFile({ type: "asset", fileName: `oauth-icons/${type}.svg`, source: oauthIconSvg(type)! });
    },
  };
}
