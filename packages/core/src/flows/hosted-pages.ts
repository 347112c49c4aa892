import { KnownError } from "@latchkey/protocol/errors/known-error";
import type { SignInResponse } from "@latchkey/protocol/schemas";
import { HOSTED_PAGES, MFA_REQUIRED_EVENT, RETURN_TO_PARAM, hostedHandlerPath } from "@latchkey/protocol/hosted-pages";
import { createClientApp, internalsOf, type ClientApp, type ClientAppOptions } from "../apps/client-app.js";
import { documentCookieJar } from "../token-stores/cookie-jar.js";
import { normaliseBaseUrl, resolveUrls, type AppUrls } from "../urls.js";
import { pkceChallenge, randomBase64Url } from "./pkce.js";

/**
 * The handler pages a Latchkey server hosts for each project (issue 16 §5), for apps without routes of their
 * own: `<baseUrl>/projects/<project id>/handler/<page>`.
 *
 * Those pages live on the server's origin, and so does the session a person starts there. To bring it back,
 * the app hands out a PKCE challenge (RFC 7636) with everyone it sends to a hosted page, as part of the return
 * address (`after_auth_return_to=<this page>?latchkey_handoff=<state>.<challenge>`), keeping the verifier in a
 * cookie of its own origin. Once the person is signed in there, the hosted page trades its session for a
 * one-time code bound to that challenge and that page (`POST /auth/hosted-pages/handoff`), and goes back with
 * it; the app trades code and verifier for a session of its own (`…/handoff/sign-in`). Anyone who sees the
 * code in the address bar or a log cannot use it without the verifier, which never left the app's origin.
 */

/** On a return address: the hand-off the app asks for, `<state>.<S256 challenge>`. */
export const HANDOFF_PARAM = "latchkey_handoff";
/** On the app's page once back: the one-time code and the state that names its verifier. */
const CODE_PARAM = "latchkey_handoff_code";
const STATE_PARAM = "latchkey_handoff_state";
/** Marks a magic link that comes back to the app's page (the link adds `code`). */
const MAGIC_LINK_PARAM = "latchkey_magic_link";
const verifierCookie = (state: string) => `latchkey-handoff-${state}`;
/** SPEC.md §4: where a sign-in waiting for its second factor keeps its attempt code (as the elements do). */
const MFA_ATTEMPT_CODE_KEY = "stack_mfa_attempt_code";
/** The person has the hosted pages' sign-in (and maybe a mail) to get through: an hour, as for OAuth. */
const VERIFIER_MAX_AGE_SECONDS = 3_600;

/** The hosted pages' address of each of an app's pages. */
const PAGE_OF: Partial<Record<keyof AppUrls, (typeof HOSTED_PAGES)[number]>> = {
  signIn: "sign-in",
  signUp: "sign-up",
  signOut: "sign-out",
  forgotPassword: "forgot-password",
  passwordReset: "password-reset",
  emailVerification: "email-verification",
  magicLinkCallback: "magic-link-callback",
  oauthCallback: "oauth-callback",
  accountSettings: "account-settings",
  teamInvitation: "team-invitation",
  mfa: "mfa",
  error: "error",
};

/** The app urls of a project's hosted pages on the server at `baseUrl`. */
export function hostedPageUrls(baseUrl: string, projectId: string): Partial<AppUrls> {
  const base = `${baseUrl.replace(/\/+$/, "")}${hostedHandlerPath(projectId)}`;
  const urls: Partial<AppUrls> = { handler: hostedHandlerPath(projectId) };
  for (const [name, page] of Object.entries(PAGE_OF)) urls[name as keyof AppUrls] = `${base}/${page}`;
  return urls;
}

/**
 * A client app whose handler pages are the ones the server hosts: every page of `urls` is there, unless the
 * options name it. Following a link to them (or `redirectToSignIn()`, `redirectTo(...)`) carries this page
 * as the return address and asks for the session back; arriving with it signs the app in. OAuth and magic
 * links started on this page come back to this page (their verifier and nonce live on its origin). Signing
 * out here signs out of the hosted pages too, then comes back to after-sign-out.
 *
 * @example
 * ```ts
 * const app = createClientAppWithHostedPages({ projectId, publishableClientKey, baseUrl: "https://auth.example.com" });
 * ```
 */
export function createClientAppWithHostedPages(given: ClientAppOptions): ClientApp {
  const options = { ...given, baseUrl: normaliseBaseUrl(given.baseUrl) };
  const currentUrl = options.currentUrl ?? (() => (globalThis as { location?: { href: string } }).location?.href);
  const here = currentUrl();
  const hostedBase = `${options.baseUrl.replace(/\/+$/, "")}${hostedHandlerPath(options.projectId)}/`;
  const thisPage = here ? new URL(here).origin + new URL(here).pathname : undefined;
  const urls: Partial<AppUrls> = {
    ...hostedPageUrls(options.baseUrl, options.projectId),
    ...(thisPage ? { oauthCallback: thisPage, magicLinkCallback: `${thisPage}?${MAGIC_LINK_PARAM}=1` } : {}),
    ...options.urls,
  };
  if (here && urls.signOut?.startsWith(hostedBase)) {
    // The hosted pages keep a session of their own: leaving it behind would sign the next person at this
    // computer straight back in there. Their sign-out page ends it, then comes back to after-sign-out.
    const afterSignOut = new URL(resolveUrls(options.urls).afterSignOut, here).href;
    urls.afterSignOut = `${urls.signOut}?${new URLSearchParams({ [RETURN_TO_PARAM]: afterSignOut })}`;
  }

  const navigate = options.navigate ?? assignLocation;
  /** A hosted page gets this page as return address and, on another origin, a hand-off request. */
  const toHostedPage = async (url: string): Promise<string> => {
    const current = currentUrl();
    if (!current) return url;
    const origin = new URL(current).origin;
    const target = new URL(url, current);
    if (!target.href.startsWith(hostedBase)) return url;
    const returnTo = new URL(target.searchParams.get(RETURN_TO_PARAM) ?? current, current);
    // On the same origin the session is shared already. Only this origin's pages can finish a hand-off, and
    // after signing out there is nothing to hand back.
    if (target.origin !== origin && returnTo.origin === origin && !target.pathname.endsWith("/sign-out")) {
      const state = randomBase64Url(16);
      const verifier = randomBase64Url(32);
      documentCookieJar().set(verifierCookie(state), verifier, { maxAgeSeconds: VERIFIER_MAX_AGE_SECONDS, secure: false });
      returnTo.searchParams.set(HANDOFF_PARAM, `${state}.${await pkceChallenge(verifier)}`);
    }
    target.searchParams.set(RETURN_TO_PARAM, returnTo.href);
    return target.href;
  };

  /**
   * A sign-in waiting for its second factor keeps its attempt code in this origin's session storage (SPEC.md
   * §4), out of reach of a hosted mfa page on another origin, so going there would only say the sign-in
   * expired. The page is asked instead (MFA_REQUIRED_EVENT): its `<auth-sign-in>` takes the code in place.
   */
  const isHostedMfaPageElsewhere = (url: string): boolean => {
    const current = currentUrl();
    if (!current) return false;
    const target = new URL(url, current);
    return target.origin !== new URL(current).origin && target.origin + target.pathname === hostedBase + "mfa";
  };

  const app = createClientApp({
    ...options,
    urls,
    trustedOrigins: [...(options.trustedOrigins ?? []), new URL(options.baseUrl).origin],
    navigate: async (url, how) => {
      if (isHostedMfaPageElsewhere(url) && !dispatchEvent(new Event(MFA_REQUIRED_EVENT, { cancelable: true }))) return;
      await navigate(await toHostedPage(url), how);
    },
  });
  followLinks((href) => href.startsWith(hostedBase), async (href) => navigate(await toHostedPage(href), { replace: false }));
  void finishArrival(app, currentUrl).catch((error: unknown) => console.error("Latchkey: signing in on arrival failed", error));
  return app;
}

/**
 * The app of a hosted page itself (the server's routes/hosted-handler-pages.ts configures it): a redirect or a
 * followed link to a return address that asks for a hand-off goes there with a code for the signed-in person.
 */
export function createHostedPageApp(options: ClientAppOptions): ClientApp {
  const navigate = options.navigate ?? assignLocation;
  const app: ClientApp = createClientApp({ ...options, navigate: async (url, how) => navigate(await handOff(app, url), how) });
  followLinks((href) => new URL(href).searchParams.has(HANDOFF_PARAM), async (href) => navigate(await handOff(app, href), { replace: false }));
  return app;
}

/** The return address without its hand-off request, with a code for it when someone is signed in here. */
async function handOff(app: ClientApp, url: string): Promise<string> {
  const target = new URL(url, location.href);
  const request = target.searchParams.get(HANDOFF_PARAM);
  if (request === null) return url;
  target.searchParams.delete(HANDOFF_PARAM);
  const [state = "", challenge = ""] = request.split(".");
  const { ctx } = internalsOf(app);
  if (!ctx.session.peek().refreshToken) return target.href;
  try {
    const { code } = await ctx.call<{ code: string }>({ method: "POST", path: "/auth/hosted-pages/handoff", body: { redirect_uri: target.href, code_challenge: challenge } });
    target.searchParams.set(CODE_PARAM, code);
    target.searchParams.set(STATE_PARAM, state);
  } catch (error) {
    // The person still goes back, signed out there: no worse than without a hand-off.
    console.error("Latchkey: the session could not be handed to the app", error);
  }
  return target.href;
}

/** On the app's page: a hand-off, a magic link or an OAuth callback that came back here signs in. */
async function finishArrival(app: ClientApp, currentUrl: () => string | undefined): Promise<void> {
  const current = currentUrl();
  if (!current) return;
  const url = new URL(current);
  const { ctx, completeSignIn } = internalsOf(app);
  const code = url.searchParams.get(CODE_PARAM);
  const state = url.searchParams.get(STATE_PARAM);
  if (code !== null && state !== null) {
    url.searchParams.delete(CODE_PARAM);
    url.searchParams.delete(STATE_PARAM);
    replaceAddress(url.href);
    const jar = documentCookieJar();
    const verifier = jar.get(verifierCookie(state));
    if (!verifier) return;
    jar.delete(verifierCookie(state));
    const response = await ctx.call<SignInResponse>({
      method: "POST",
      path: "/auth/hosted-pages/handoff/sign-in",
      body: { code, code_verifier: verifier, redirect_uri: url.href },
      session: null,
    });
    await completeSignIn(response, { noRedirect: true });
    return;
  }
  const magicCode = url.searchParams.get("code");
  if (url.searchParams.has(MAGIC_LINK_PARAM) && magicCode) {
    url.searchParams.delete(MAGIC_LINK_PARAM);
    url.searchParams.delete("code");
    replaceAddress(url.href);
    await askForSecondFactorIfNeeded(app, () => app.signInWithCode(magicCode));
    return;
  }
  await askForSecondFactorIfNeeded(app, () => app.callOAuthCallback());
}

/**
 * Runs a sign-in on arrival; one that waits for a second factor keeps its attempt code in this origin's
 * session storage and goes on to the mfa page, as `<auth-sign-in>` does (a hosted one on another origin is
 * replaced by this page's own form, above).
 */
async function askForSecondFactorIfNeeded(app: ClientApp, signIn: () => Promise<unknown>): Promise<void> {
  try {
    await signIn();
  } catch (error) {
    if (!(error instanceof KnownError) || error.code !== "MULTI_FACTOR_AUTHENTICATION_REQUIRED") throw error;
    sessionStorage.setItem(MFA_ATTEMPT_CODE_KEY, String((error.details as { attempt_code?: unknown } | undefined)?.attempt_code ?? ""));
    await app.redirectTo("mfa", { replace: true });
  }
}

/** Clicks on links that `matches` go through `follow` instead (plain left clicks the page did not handle). */
function followLinks(matches: (href: string) => boolean, follow: (href: string) => Promise<void>): void {
  if (typeof document === "undefined") return;
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = event.composedPath().find((node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement && node.hasAttribute("href"));
    if (!anchor || (anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download") || !matches(anchor.href)) return;
    event.preventDefault();
    void follow(anchor.href);
  });
}

function replaceAddress(url: string): void {
  history.replaceState(history.state, "", url);
}

function assignLocation(url: string, { replace }: { replace: boolean }): void {
  if (replace) location.replace(url);
  else location.assign(url);
}
