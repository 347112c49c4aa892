import { REFRESH_TOKEN_ERROR, isKnownError } from "../http/client-errors.js";
import type { SendSignInCodeResponse, SignInResponse } from "@latchkey/protocol/schemas";
import { ACCESS_TOKEN_FRESHNESS_MILLIS } from "../constants.js";
import { returnTarget } from "../urls.js";
import { DEVICE_TOKEN_HEADER } from "../token-stores/device-token-store.js";
import type { AppContext } from "./app-context.js";

/** The outcome of a sign-in or sign-up. */
export interface SignInResult {
  userId: string;
  isNewUser: boolean;
}

export interface RedirectOptions {
  /** Stay on the page instead of going to after-sign-in / after-sign-up. */
  noRedirect?: boolean;
}

/**
 * The auth flows of SPEC.md §7 "Auth" for a client app. Each stores the tokens it receives, tells the app
 * its session changed (`onSessionChange`), and then redirects as SPEC.md §2 and §4 say.
 */
/**
 * Stores the tokens of a sign-in response, tells the app its session changed, then goes to
 * `after_auth_return_to`, else after-sign-up for new users and after-sign-in for others (SPEC.md §2, §4).
 */
export function signInCompleter(ctx: AppContext, onSessionChange: () => Promise<void>) {
  return async function completeSignIn(response: SignInResponse, options: RedirectOptions & { returnTo?: string | null }): Promise<SignInResult> {
    ctx.session.signIn({ accessToken: response.access_token, refreshToken: response.refresh_token });
    await onSessionChange();
    if (!options.noRedirect) await redirectAfterSignIn(ctx, { isNewUser: response.is_new_user, returnTo: options.returnTo });
    return { userId: response.user_id, isNewUser: response.is_new_user };
  };
}

/** Goes to `returnTo`, else the page's `after_auth_return_to`, else after-sign-up for a new user and after-sign-in for others. */
export function redirectAfterSignIn(ctx: AppContext, options: { isNewUser: boolean; returnTo?: string | null }): Promise<void> {
  const target = options.returnTo ?? returnTarget(ctx.currentUrl()) ?? (options.isNewUser ? ctx.urls.afterSignUp : ctx.urls.afterSignIn);
  return ctx.redirect(target, { replace: true });
}

/**
 * A password sign-in or sign-up, with this browser's device token for the account, keeping the one the server
 * answers with (token-stores/device-token-store.ts).
 */
async function passwordCall(ctx: AppContext, path: string, email: string, body: Record<string, unknown>): Promise<SignInResponse> {
  const deviceToken = ctx.deviceTokens.get(email);
  const response = await ctx.http.send({
    method: "POST",
    path,
    body,
    accessType: ctx.accessType,
    session: null,
    headers: deviceToken ? { [DEVICE_TOKEN_HEADER]: deviceToken } : undefined,
  });
  const renewed = response.headers.get(DEVICE_TOKEN_HEADER);
  if (renewed) ctx.deviceTokens.set(email, renewed);
  return (await response.json()) as SignInResponse;
}

export function clientAuthActions(ctx: AppContext, completeSignIn: ReturnType<typeof signInCompleter>, onSessionChange: () => Promise<void>) {
  return {
    /** Creates an account with email and password and signs in; the verification mail links to the email-verification page. */
    async signUpWithCredential(input: { email: string; password: string; verificationCallbackUrl?: string } & RedirectOptions): Promise<SignInResult> {
      const response = await passwordCall(ctx, "/auth/password/sign-up", input.email, {
        email: input.email,
        password: input.password,
        verification_callback_url: input.verificationCallbackUrl ?? ctx.absoluteUrl(ctx.urls.emailVerification),
      });
      return completeSignIn(response, input);
    },

    async signInWithCredential(input: { email: string; password: string } & RedirectOptions): Promise<SignInResult> {
      const response = await passwordCall(ctx, "/auth/password/sign-in", input.email, { email: input.email, password: input.password });
      return completeSignIn(response, input);
    },

    /**
     * Mails a magic link and a one-time code. Returns the nonce to append to a code the user types
     * (`signInWithCode(typed + nonce)`); a link carries the full code already.
     */
    async sendMagicLinkEmail(email: string, options: { callbackUrl?: string } = {}): Promise<{ nonce: string }> {
      const response = await ctx.call<SendSignInCodeResponse>({
        method: "POST",
        path: "/auth/otp/send-sign-in-code",
        body: { email, callback_url: options.callbackUrl ?? ctx.absoluteUrl(ctx.urls.magicLinkCallback) },
        session: null,
      });
      return { nonce: response.nonce };
    },

    /** Signs in with a magic-link / one-time code (SPEC.md §4: new users go to after-sign-up). */
    async signInWithCode(code: string, options: RedirectOptions = {}): Promise<SignInResult> {
      const response = await ctx.call<SignInResponse>({ method: "POST", path: "/auth/otp/sign-in", body: { code }, session: null });
      return completeSignIn(response, options);
    },

    /**
     * Finishes a sign-in that answered MULTI_FACTOR_AUTHENTICATION_REQUIRED: the attempt code from that
     * error (the sign-in page keeps it in session storage) and the user's current TOTP code.
     */
    async signInWithMfa(input: { totp: string; attemptCode: string } & RedirectOptions): Promise<SignInResult> {
      const response = await ctx.call<SignInResponse>({ method: "POST", path: "/auth/mfa/sign-in", body: { type: "totp", totp: input.totp, code: input.attemptCode }, session: null });
      return completeSignIn(response, input);
    },

    /** Mails a password-reset link (the answer never reveals whether the address has an account). */
    async sendForgotPasswordEmail(email: string, options: { callbackUrl?: string } = {}): Promise<void> {
      await ctx.call({
        method: "POST",
        path: "/auth/password/send-reset-code",
        body: { email, callback_url: options.callbackUrl ?? ctx.absoluteUrl(ctx.urls.passwordReset) },
        session: null,
      });
    },

    /** Whether a password-reset code can still be used; throws the code's known error otherwise. */
    async verifyPasswordResetCode(code: string): Promise<void> {
      await ctx.call({ method: "POST", path: "/auth/password/reset/check-code", body: { code }, session: null });
    },

    async resetPassword(input: { code: string; password: string }): Promise<void> {
      await ctx.call({ method: "POST", path: "/auth/password/reset", body: { code: input.code, password: input.password }, session: null });
    },

    /** Verifies an email address with the code of its verification link. */
    async verifyEmail(code: string): Promise<void> {
      await ctx.call({ method: "POST", path: "/contact-channels/verify", body: { code } });
      await onSessionChange();
    },

    /**
     * Ends the session on the server and forgets it locally — locally even if the server says the session is
     * already gone (SPEC.md §4) — then goes to `redirectUrl` or after-sign-out.
     */
    async signOut(options: { redirectUrl?: string } = {}): Promise<void> {
      try {
        // Refreshes a stale access token first; `null` when the refresh token is gone already (nothing to end).
        const tokens = await ctx.session.getTokens(ACCESS_TOKEN_FRESHNESS_MILLIS);
        if (tokens) await ctx.call({ method: "DELETE", path: "/auth/sessions/current", body: {} });
      } catch (error) {
        if (!(isKnownError(error, REFRESH_TOKEN_ERROR))) {
          // Unreachable server: the user still asked to be signed out here, so forget the tokens, then report.
          ctx.session.clear();
          await onSessionChange();
          throw error;
        }
      }
      ctx.session.clear();
      await onSessionChange();
      await ctx.redirect(options.redirectUrl ?? ctx.urls.afterSignOut, { replace: true });
    },
  };
}
