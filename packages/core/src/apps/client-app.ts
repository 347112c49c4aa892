import type { SignInResponse } from "@latchkey/protocol/schemas";
import type { ReadableAtom } from "nanostores";
import type { Session } from "../session/session.js";
import { cachedStore, type CachedStore } from "../stores/cached-store.js";
import { sessionStore, type SessionState } from "../stores/session-store.js";
import { normaliseBaseUrl, withReturnTarget, type AppUrls } from "../urls.js";
import type { Project } from "../wire/projects.js";
import type { Team } from "../wire/teams.js";
import type { CurrentUser } from "../wire/users.js";
import { createAppContext, type AppContext, type AppOptions } from "./app-context.js";
import { clientAccountActions } from "./client-account-actions.js";
import { clientAuthActions, redirectAfterSignIn, signInCompleter, type SignInResult, type RedirectOptions } from "./client-auth-actions.js";
import { clientOAuthActions } from "./client-oauth.js";
import { clientProjectActions } from "./client-project-actions.js";
import { clientTeamActions } from "./client-team-actions.js";
import { clientUserActions } from "./client-user-actions.js";

export interface ClientAppOptions extends AppOptions {
  publishableClientKey: string;
}

/** The stores of one app instance (never shared between apps or module-level). */
export interface ClientAppStores {
  /** The signed-in user; `null` when signed out (anonymous users count as signed out here). */
  $user: CachedStore<CurrentUser | null>;
  /** The session as known locally (tokens present, user id, expiry). */
  $session: ReadableAtom<SessionState>;
  /** The project's public configuration: enabled sign-in methods and OAuth providers. */
  $project: CachedStore<Project>;
  /** The signed-in user's teams; empty when signed out. */
  $teams: CachedStore<Team[]>;
}

export type ClientApp = ReturnType<typeof buildClientApp>;

/**
 * The context behind each app, for the flows that live outside the app object (passkeys, CLI login) so that
 * bundles which never use them do not carry them.
 */
export interface AppInternals {
  ctx: AppContext;
  completeSignIn(response: SignInResponse, options: RedirectOptions): Promise<SignInResult>;
}
const internals = new WeakMap<object, AppInternals>();

export function internalsOf(app: ClientApp): AppInternals {
  const found = internals.get(app);
  if (!found) throw new Error("Not an app made by createClientApp");
  return found;
}

/**
 * A browser-side (or any client-side) app of one project, with a publishable client key.
 *
 * @example
 * ```ts
 * const app = createClientApp({ projectId, publishableClientKey, baseUrl: "https://auth.example.com" });
 * app.$user.subscribe((user) => console.log(user));
 * await app.signInWithCredential({ email, password });
 * ```
 */
export function createClientApp(options: ClientAppOptions): ClientApp {
  const normalised = { ...options, baseUrl: normaliseBaseUrl(options.baseUrl) };
  return buildClientApp(createAppContext(normalised, "client"), normalised);
}

/** The client app over a context; server and admin apps reuse it with their own access type. */
export function buildClientApp(ctx: AppContext, options: { publishableClientKey?: string; baseUrl?: string } = {}) {
  const { session } = ctx;
  let user: ReturnType<typeof clientUserActions>;
  const $user = cachedStore(() => user.getUser(), ctx.clock);
  const $teams = cachedStore(() => user.listTeams(), ctx.clock);
  const $project = cachedStore(() => user.getProject(), ctx.clock);
  const $session = sessionStore(session.store);

  let pending: Promise<void> = Promise.resolve();
  const refreshUserData = (): Promise<void> => (pending = Promise.all([$user.refresh(), $teams.refresh()]).then(() => {}));

  // Signing in or out anywhere (here, in another tab, or by a rejected refresh) reloads the user's data.
  let lastRefreshToken = session.peek().refreshToken;
  session.store.subscribe((tokens) => {
    if (tokens.refreshToken === lastRefreshToken) return;
    lastRefreshToken = tokens.refreshToken;
    void refreshUserData();
  });
  // Called after a sign-in or sign-out: the subscription above has started the reload; wait for it.
  const afterSessionChange = () => pending;

  user = clientUserActions(ctx, refreshUserData, afterSessionChange);
  const completeSignIn = signInCompleter(ctx, afterSessionChange);
  const auth = clientAuthActions(ctx, completeSignIn, afterSessionChange);

  const app = {
    projectId: ctx.projectId,
    /** The Latchkey server (what the app was created with), e.g. for the provider marks it serves. */
    baseUrl: options.baseUrl,
    urls: ctx.urls as Readonly<AppUrls>,
    /** The session and its token store (advanced use: framework integrations). */
    session: session as Session,
    $user: $user as ClientAppStores["$user"],
    $session,
    $project,
    $teams,
    ...auth,
    ...user,
    ...clientAccountActions(ctx, refreshUserData, afterSessionChange),
    ...clientTeamActions(ctx, refreshUserData),
    ...clientProjectActions(ctx),
    ...clientOAuthActions(ctx, options.publishableClientKey, options.baseUrl, completeSignIn, refreshUserData),
    /** Goes to the sign-in page, carrying the current page as `after_auth_return_to`. */
    redirectToSignIn: (options: { replace?: boolean } = {}) => ctx.redirect(withReturnTarget(ctx.urls.signIn, ctx.currentUrl()), options),
    redirectToSignUp: (options: { replace?: boolean } = {}) => ctx.redirect(withReturnTarget(ctx.urls.signUp, ctx.currentUrl()), options),
    /** Goes to one of the app's pages by name (e.g. `afterSignOut`, `accountSettings`). */
    redirectTo: (page: keyof AppUrls, options: { replace?: boolean } = {}) => ctx.redirect(ctx.urls[page], options),
    /**
     * Goes where a finished sign-in goes: the page's `after_auth_return_to`, else after-sign-up for a new user,
     * else after-sign-in. For a flow that finishes after its sign-in call (a sign-up waiting for its email to be verified).
     */
    redirectAfterSignIn: (options: { isNewUser: boolean }) => redirectAfterSignIn(ctx, options),
  };
  internals.set(app, { ctx, completeSignIn });
  return app;
}
