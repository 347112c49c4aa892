import { Hono } from "hono";
import type { AppEnv } from "../http/context.js";

/**
 * `GET /oauth-icons/<type>.svg`: a small mark for each provider type, for the widgets' "Continue with …"
 * buttons. Served here rather than bundled, so the sign-in bundle carries no icon and a page fetches only
 * the enabled providers' (as `<img>`, which works from any origin). Simple single-colour glyphs in each
 * provider's brand colour, not the providers' artwork.
 */
const ICONS: Record<string, string> = {
  google: `<path fill="#4285F4" d="M21.6 12.2c0-.7-.1-1.4-.2-2H12v3.8h5.4a4.6 4.6 0 0 1-2 3v2.5h3.2c1.9-1.7 3-4.3 3-7.3z"/><path fill="#34A853" d="M12 22c2.7 0 5-.9 6.6-2.4l-3.2-2.5c-.9.6-2 1-3.4 1-2.6 0-4.8-1.8-5.6-4.1H3.1v2.6A10 10 0 0 0 12 22z"/><path fill="#FBBC05" d="M6.4 14a6 6 0 0 1 0-3.9V7.5H3.1a10 10 0 0 0 0 9z"/><path fill="#EA4335" d="M12 6c1.5 0 2.8.5 3.8 1.5l2.9-2.9A10 10 0 0 0 3.1 7.5L6.4 10C7.2 7.8 9.4 6 12 6z"/>`,
  github: `<path fill="#181717" d="M12 2a10 10 0 0 0-3.2 19.5c.5.1.7-.2.7-.5v-1.8c-2.8.6-3.4-1.2-3.4-1.2-.4-1.1-1.1-1.4-1.1-1.4-.9-.6.1-.6.1-.6 1 .1 1.5 1 1.5 1 .9 1.5 2.4 1.1 2.9.8.1-.7.4-1.1.6-1.3-2.2-.3-4.6-1.1-4.6-5 0-1.1.4-2 1-2.7-.1-.3-.4-1.3.1-2.7 0 0 .8-.3 2.8 1a9.6 9.6 0 0 1 5 0c1.9-1.3 2.8-1 2.8-1 .5 1.4.2 2.4.1 2.7.6.7 1 1.6 1 2.7 0 3.9-2.3 4.7-4.6 5 .4.3.7.9.7 1.9V21c0 .3.2.6.7.5A10 10 0 0 0 12 2z"/>`,
  microsoft: `<path fill="#F25022" d="M3 3h8.5v8.5H3z"/><path fill="#7FBA00" d="M12.5 3H21v8.5h-8.5z"/><path fill="#00A4EF" d="M3 12.5h8.5V21H3z"/><path fill="#FFB900" d="M12.5 12.5H21V21h-8.5z"/>`,
  facebook: `<path fill="#1877F2" d="M22 12a10 10 0 1 0-11.6 9.9v-7H7.9V12h2.5V9.8c0-2.5 1.5-3.9 3.8-3.9 1.1 0 2.2.2 2.2.2v2.5h-1.3c-1.2 0-1.6.8-1.6 1.6V12h2.8l-.4 2.9h-2.3v7A10 10 0 0 0 22 12z"/>`,
  spotify: `<path fill="#1DB954" d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm4.6 14.4a.6.6 0 0 1-.9.2c-2.4-1.5-5.3-1.8-8.8-1a.6.6 0 1 1-.3-1.2c3.8-.9 7.1-.5 9.8 1.1.3.2.4.6.2.9zm1.2-2.7a.8.8 0 0 1-1.1.3c-2.7-1.7-6.9-2.2-10.1-1.2a.8.8 0 1 1-.5-1.5c3.7-1.1 8.3-.6 11.4 1.3.4.3.5.8.3 1.1zm.1-2.8C14.7 9 9.4 8.8 6.3 9.7a1 1 0 1 1-.5-1.8c3.5-1.1 9.4-.9 13.1 1.3a1 1 0 0 1-1 1.7z"/>`,
  discord: `<path fill="#5865F2" d="M19.5 5.3A16.5 16.5 0 0 0 15.4 4l-.5 1a15 15 0 0 0-5.8 0l-.5-1a16.5 16.5 0 0 0-4.1 1.3C1.9 9.2 1.2 13 1.5 16.8a16.6 16.6 0 0 0 5 2.5l1.1-1.7a10.7 10.7 0 0 1-1.7-.8l.4-.3a11.8 11.8 0 0 0 11.4 0l.4.3-1.7.8 1.1 1.7a16.6 16.6 0 0 0 5-2.5c.4-4.4-.7-8.2-3-11.5zM8.7 14.5c-1 0-1.8-.9-1.8-2s.8-2 1.8-2 1.8.9 1.8 2-.8 2-1.8 2zm6.6 0c-1 0-1.8-.9-1.8-2s.8-2 1.8-2 1.8.9 1.8 2-.8 2-1.8 2z"/>`,
  gitlab: `<path fill="#FC6D26" d="m12 21.4 3.7-11.3H8.3z"/><path fill="#E24329" d="M12 21.4 8.3 10.1H3.1z"/><path fill="#FCA326" d="m3.1 10.1-1.1 3.4c-.1.3 0 .7.3.9l9.7 7z"/><path fill="#E24329" d="M3.1 10.1h5.2L6.1 3.2c-.1-.4-.6-.4-.7 0z"/><path fill="#E24329" d="m12 21.4 3.7-11.3h5.2z"/><path fill="#FCA326" d="m20.9 10.1 1.1 3.4c.1.3 0 .7-.3.9l-9.7 7z"/><path fill="#E24329" d="M20.9 10.1h-5.2l2.2-6.9c.1-.4.6-.4.7 0z"/>`,
  bitbucket: `<path fill="#2684FF" d="M2.7 3a.6.6 0 0 0-.6.7l2.7 16.3c.1.4.4.7.8.7h13c.3 0 .6-.2.6-.5l2.7-16.5a.6.6 0 0 0-.6-.7zm11.5 11.8H9.8L8.7 8.9h6.6z"/>`,
  linkedin: `<path fill="#0A66C2" d="M20.4 2H3.6C2.7 2 2 2.7 2 3.6v16.8c0 .9.7 1.6 1.6 1.6h16.8c.9 0 1.6-.7 1.6-1.6V3.6c0-.9-.7-1.6-1.6-1.6zM8 19H5V9.5h3zM6.5 8.2a1.7 1.7 0 1 1 0-3.5 1.7 1.7 0 0 1 0 3.5zM19 19h-3v-4.6c0-1.1 0-2.5-1.5-2.5s-1.8 1.2-1.8 2.4V19h-3V9.5h2.8v1.3c.4-.8 1.4-1.5 2.9-1.5 3.1 0 3.6 2 3.6 4.6z"/>`,
  apple: `<path fill="#000" d="M16.4 12.6c0-2.6 2.1-3.8 2.2-3.9a4.7 4.7 0 0 0-3.7-2c-1.6-.2-3.1.9-3.9.9s-2-.9-3.4-.9A5 5 0 0 0 3.4 9.3c-1.8 3.1-.5 7.7 1.3 10.2.9 1.2 1.9 2.6 3.2 2.6 1.3-.1 1.8-.8 3.3-.8s2 .8 3.4.8c1.4 0 2.3-1.3 3.1-2.5a11 11 0 0 0 1.4-2.9 4.5 4.5 0 0 1-2.7-4.1zM13.8 5a4.4 4.4 0 0 0 1-3.3 4.6 4.6 0 0 0-3 1.6 4.2 4.2 0 0 0-1 3.2A3.8 3.8 0 0 0 13.8 5z"/>`,
  x: `<path fill="#000" d="M17.8 3h3.1l-6.8 7.8 8 10.2h-6.3l-4.9-6.4L5.3 21H2.2l7.3-8.3L1.8 3h6.4l4.4 5.8zm-1.1 16.2h1.7L7.3 4.7H5.5z"/>`,
  twitch: `<path fill="#9146FF" d="M4 2 2.5 5.9v14.3h4.9V23h2.7l2.8-2.8h4.1l5.5-5.5V2zm16.1 11.7-3 3h-4.6L9.9 19.3v-2.6H5.8V4H20zM17.3 6.8h-1.8v5.4h1.8zm-4.9 0h-1.8v5.4h1.8z"/>`,
};

/** The provider types that have a mark. */
export const OAUTH_ICON_TYPES = Object.keys(ICONS);

/** The SVG document of a provider type's mark (Storybook serves the same files: .storybook/oauth-icons.ts). */
export function oauthIconSvg(type: string): string | undefined {
  const icon = Object.hasOwn(ICONS, type) ? ICONS[type] : undefined;
  return icon && `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">${icon}</svg>`;
}

export function oauthIconsRoutes() {
  return new Hono<AppEnv>().get("/oauth-icons/:file", (c) => {
    const file = c.req.param("file");
    const svg = file.endsWith(".svg") ? oauthIconSvg(file.slice(0, -".svg".length)) : undefined;
    if (!svg) return c.notFound();
    return c.body(svg, 200, {
      "content-type": "image/svg+xml",
      // The marks never change for a given path: cache for a day, everywhere.
      "cache-control": "public, max-age=86400",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      "cross-origin-resource-policy": "cross-origin",
    });
  });
}
