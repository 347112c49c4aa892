import { hostedHandlerPath } from "@latchkey/protocol/hosted-pages";
import type { Env } from "../env.js";
import { requiresPublishableClientKey, type ProjectConfig } from "./project-config.js";
import { isRedirectUrlTrusted, isUrlOriginTrustedByProject, isUrlTrustedByProject, trustedDomainBaseUrls } from "./trusted-domains.js";

/**
 * The handler pages this server hosts for each project (issue 16 §5, routes/hosted-handler-pages.ts), at
 * `<public URL>/projects/<project id>/handler/<page>`. They are the project's own pages as much as the ones
 * under its trusted domains: mails may link to them, OAuth may come back to them. Only this project's pages
 * count for it; another project's pages on the same server are as foreign as any other site.
 */

/**
 * Whether this server hosts the project's handler pages: not for a project that requires a publishable
 * client key on every request, since the pages have none to send (routes/hosted-handler-pages.ts).
 */
export function hasHostedPages(config: ProjectConfig): boolean {
  return !requiresPublishableClientKey(config);
}

/**
 * The origin the project's hosted pages run on (this server's public origin), or undefined while it has none.
 * Every project's hosted pages share it, so it is trusted for a project only as a whole origin, never as a
 * reason to trust anything under it.
 */
export function hostedPagesOrigin(env: Pick<Env, "publicUrl">, config: ProjectConfig): string | undefined {
  return hasHostedPages(config) ? new URL(env.publicUrl).origin : undefined;
}

/** The absolute URL of a project's hosted handler pages on this server. */
export function hostedHandlerBase(env: Pick<Env, "publicUrl">, projectId: string): string {
  return `${env.publicUrl}${hostedHandlerPath(projectId)}`;
}

/**
 * Whether `url` may be the base of a mailed link or a redirect for the project: under one of its trusted
 * domains (or localhost when allowed), or one of its hosted handler pages on this server.
 */
export function isUrlTrustedForProject(env: Pick<Env, "publicUrl">, projectId: string, config: ProjectConfig, url: string): boolean {
  if (isUrlTrustedByProject(config, url)) return true;
  // The same strict parsing as for trusted domains, with the hosted pages' folder as the only one.
  return isRedirectUrlTrusted(url, { trustedDomains: [hostedHandlerBase(env, projectId)], allowLocalhost: false });
}

/**
 * Whether the OAuth callback may send the user to `url` (the client's redirect_uri, its error page): trusted by
 * scheme, host and port (the path ignored, as the protocol's server checks it), or the project's hosted pages.
 */
export function isOAuthRedirectTrustedForProject(env: Pick<Env, "publicUrl">, projectId: string, config: ProjectConfig, url: string): boolean {
  if (isUrlOriginTrustedByProject(config, url)) return true;
  return isRedirectUrlTrusted(url, { trustedDomains: [hostedHandlerBase(env, projectId)], allowLocalhost: false });
}

/**
 * Where the hosted pages send people who came without a (trusted) return address: the project's first
 * trusted domain without wildcards, as its home page; a project without one has no home to go to, so its
 * hosted account-settings page stands in.
 */
export function projectHomeUrl(env: Pick<Env, "publicUrl">, projectId: string, config: ProjectConfig): string {
  const home = trustedDomainBaseUrls(config).find((url) => !url.includes("*") && isUrlTrustedByProject(config, url));
  return home ?? `${hostedHandlerBase(env, projectId)}/account-settings`;
}
