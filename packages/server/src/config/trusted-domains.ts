import { trustedDomainError } from "@latchkey/protocol/schemas";
import type { ProjectConfig } from "./project-config.js";

/**
 * Trusted domains and redirect URLs (SPEC.md §2 and §5). A redirect goes only to a URL under one of
 * the project's trusted domains (or to localhost when the project allows it). The checks are strict
 * on purpose: anything a browser could read differently from us is refused.
 */

export { hostnamePatternError, trustedDomainError } from "@latchkey/protocol/schemas";

const WILDCARD_PLACEHOLDER = "wildcard-placeholder";

/** Why `domain` cannot be a trusted domain (e.g. "domain must start with http:// or https://"), or undefined. */
export function validateTrustedDomain(domain: string, path = "domain"): string | undefined {
  const reason = trustedDomainError(domain);
  return reason ? `${path} ${reason}` : undefined;
}

/** localhost, *.localhost and 127.x.x.x (SPEC.md §5 "Local"). */
export function isLocalhost(urlOrString: URL | string): boolean {
  let url: URL;
  try {
    url = new URL(urlOrString);
  } catch {
    return false;
  }
  return url.hostname === "localhost" || url.hostname.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

/** Whether `hostname` matches `pattern`: `*` stands for one non-empty label part, `**` for any run of labels. */
export function matchHostnamePattern(pattern: string, hostname: string): boolean {
  if (!pattern.includes("*")) return pattern === hostname;
  const source = pattern
    .split(/(\*\*|\*)/)
    .map((part) => (part === "**" ? ".+" : part === "*" ? "[^.]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}$`).test(hostname);
}

/** The base URLs of a config's trusted domains (entries without one are skipped). */
export function trustedDomainBaseUrls(config: ProjectConfig): string[] {
  return Object.values(config.domains.trustedDomains)
    .map((d) => d.baseUrl)
    .filter((u): u is string => typeof u === "string");
}

/** Whether an absolute, already-vetted `url` is under the trusted domain `domain`. */
export function isUrlUnderTrustedDomain(url: URL, domain: string): boolean {
  if (trustedDomainError(domain) !== undefined) return false;
  const base = new URL(domain.replaceAll("*", WILDCARD_PLACEHOLDER));
  if (base.protocol !== url.protocol || base.port !== url.port) return false;
  if (!matchHostnamePattern(base.hostname.split(WILDCARD_PLACEHOLDER).join("*"), url.hostname)) return false;
  // A base path must match whole segments: /app trusts /app and /app/x, not /application.
  const basePath = base.pathname.endsWith("/") ? base.pathname : `${base.pathname}/`;
  return url.pathname === base.pathname || url.pathname.startsWith(basePath);
}

export interface RedirectTrustOptions {
  /** Base URLs of the project's trusted domains; wildcards allowed in the host. */
  trustedDomains: readonly string[];
  allowLocalhost: boolean;
  /** Origin relative URLs resolve against (the app's). Without it, relative URLs are refused. */
  baseOrigin?: string;
}

// Control characters, whitespace and backslashes are treated differently by different URL parsers.
const AMBIGUOUS_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\\]/;
const HAS_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/**
 * Whether redirecting to `url` is safe. Refused: other schemes (`javascript:`, `data:`), missing
 * `//` after the scheme (`https:evil.com`), credentials (`https://evil.com@trusted.com`),
 * scheme-relative URLs (`//evil.com`), look-alike hosts (`trusted.com.evil.com`), other ports or
 * protocols than the trusted domain's. Relative paths are accepted only with a `baseOrigin`.
 */
export function isRedirectUrlTrusted(url: string, options: RedirectTrustOptions): boolean {
  if (url === "" || AMBIGUOUS_CHARACTERS.test(url)) return false;
  if (!HAS_SCHEME.test(url)) {
    if (url.startsWith("//") || options.baseOrigin === undefined) return false;
    let base: URL;
    let resolved: URL;
    try {
      base = new URL(options.baseOrigin);
      resolved = new URL(url, base);
    } catch {
      return false;
    }
    return resolved.origin === base.origin && resolved.username === "" && resolved.password === "";
  }
  if (!/^https?:\/\/[^/]/i.test(url)) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  if (parsed.username !== "" || parsed.password !== "") return false;
  if (options.allowLocalhost && isLocalhost(parsed)) return true;
  return options.trustedDomains.some((domain) => isUrlUnderTrustedDomain(parsed, domain));
}

/**
 * Whether a project may send people to `url` (a `callback_url` a mailed link is built on, a redirect):
 * under one of its trusted domains, or on localhost when it allows localhost. Absolute URLs only.
 */
export function isUrlTrustedByProject(config: ProjectConfig, url: string): boolean {
  return isRedirectUrlTrusted(url, { trustedDomains: trustedDomainBaseUrls(config), allowLocalhost: config.domains.allowLocalhost });
}

/**
 * The OAuth callback's check of a client's redirect_uri, as the protocol's server makes it: localhost when the
 * project allows it, else the scheme, host (with `*` and `**` wildcards) and port of one of its trusted domains.
 * The path is not compared: a domain `https://app.example.com/shop` trusts `https://app.example.com/handler/…`.
 */
export function isUrlOriginTrustedByProject(config: ProjectConfig, url: string): boolean {
  const origins = trustedDomainBaseUrls(config).flatMap((domain) => {
    const origin = trustedDomainOrigin(domain);
    return origin ? [origin] : [];
  });
  return isRedirectUrlTrusted(url, { trustedDomains: origins, allowLocalhost: config.domains.allowLocalhost });
}

/** `https://*.example.com:8443/app` → `https://*.example.com:8443`; undefined for an invalid domain. */
function trustedDomainOrigin(domain: string): string | undefined {
  if (trustedDomainError(domain) !== undefined) return undefined;
  const base = new URL(domain.replaceAll("*", WILDCARD_PLACEHOLDER));
  return `${base.protocol}//${base.host}`.split(WILDCARD_PLACEHOLDER).join("*");
}
