import { DEFAULT_HANDLER_PATH } from "./constants.js";

/** The pages an app sends users to (SPEC.md §2). */
export interface AppUrls {
  handler: string;
  home: string;
  signIn: string;
  signUp: string;
  signOut: string;
  afterSignIn: string;
  afterSignUp: string;
  afterSignOut: string;
  emailVerification: string;
  passwordReset: string;
  forgotPassword: string;
  magicLinkCallback: string;
  oauthCallback: string;
  accountSettings: string;
  error: string;
  teamInvitation: string;
  mfa: string;
}

/**
 * SPEC.md §2 defaults: handler pages under `/handler`; home `/`; after-sign-in → home; after-sign-up →
 * after-sign-in; after-sign-out → home. Any of them can be overridden.
 */
export function resolveUrls(overrides: Partial<AppUrls> = {}): AppUrls {
  const handler = overrides.handler ?? DEFAULT_HANDLER_PATH;
  if (!handler.startsWith("/")) throw new Error(`The handler path must begin with /, received ${JSON.stringify(handler)}`);
  const page = (name: string) => `${handler.replace(/\/+$/, "")}/${name}`;
  const home = overrides.home ?? "/";
  const afterSignIn = overrides.afterSignIn ?? home;
  return {
    handler,
    home,
    signIn: page("sign-in"),
    signUp: page("sign-up"),
    signOut: page("sign-out"),
    emailVerification: page("email-verification"),
    passwordReset: page("password-reset"),
    forgotPassword: page("forgot-password"),
    magicLinkCallback: page("magic-link-callback"),
    oauthCallback: page("oauth-callback"),
    accountSettings: page("account-settings"),
    error: page("error"),
    teamInvitation: page("team-invitation"),
    mfa: page("mfa"),
    ...overrides,
    afterSignIn,
    afterSignUp: overrides.afterSignUp ?? afterSignIn,
    afterSignOut: overrides.afterSignOut ?? home,
  };
}

/** A URL without scheme and host (`/x`, `x?y`), but not a protocol-relative `//host` one. */
export function isRelativeUrl(url: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return false;
  return !url.startsWith("//") && !url.startsWith("\\") && !/[\u0000-\u001f]/.test(url) && !url.startsWith("/\\");
}

/**
 * Redirects go only to relative URLs, URLs of the current page's origin, or of an origin the app lists as
 * trusted; anything else is an error with the protocol client's message (SPEC.md §2).
 */
export function assertRedirectTrusted(url: string, context: { currentUrl?: string; trustedOrigins?: readonly string[] }): void {
  if (isRelativeUrl(url)) return;
  let origin: string | undefined;
  try {
    origin = new URL(url).origin;
  } catch {
    origin = undefined;
  }
  const trusted = [...(context.trustedOrigins ?? []), ...(context.currentUrl ? [new URL(context.currentUrl).origin] : [])];
  if (origin === undefined || origin === "null" || !trusted.includes(origin)) {
    throw new Error(`Redirect URL ${url} is not trusted; should be relative.`);
  }
}

/** The `after_auth_return_to` target of the current page, if it has a trusted one. */
export function returnTarget(currentUrl: string | undefined): string | undefined {
  if (!currentUrl) return undefined;
  return new URL(currentUrl).searchParams.get("after_auth_return_to") ?? undefined;
}

/**
 * The sign-in or sign-up page URL, carrying where to come back to: the current page's own
 * `after_auth_return_to`, else the current page itself (same origin only), as a relative URL.
 */
export function withReturnTarget(pageUrl: string, currentUrl: string | undefined): string {
  if (!currentUrl) return pageUrl;
  const current = new URL(currentUrl);
  const next = new URL(pageUrl, current);
  const carried = current.searchParams.get("after_auth_return_to");
  if (carried) next.searchParams.set("after_auth_return_to", carried);
  else if (next.origin === current.origin) next.searchParams.set("after_auth_return_to", current.pathname + current.search + current.hash);
  return next.origin === current.origin ? next.pathname + next.search + next.hash : next.toString();
}

let warnedAboutApiPath = false;

/**
 * `baseUrl` is the server's address; the API is under its `/api/v1`. Given with that path already (as the API
 * reference shows it), it is taken without it and the console says so once, rather than every request going to
 * `/api/v1/api/v1/…` and failing with a 404 that names nothing.
 */
export function normaliseBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/api\/v1\/*$/, "");
  if (trimmed !== baseUrl && !warnedAboutApiPath) {
    warnedAboutApiPath = true;
    console.warn(`Latchkey: baseUrl is without /api/v1: using ${trimmed}`);
  }
  return trimmed;
}
