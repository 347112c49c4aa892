/**
 * The handler pages a Latchkey server hosts for each project (issue 16 §5), shared by the server that serves
 * them and the clients that link to them: `<server>/projects/<project id>/handler/<page>`. Dependency-free, so
 * the script-tag bundles can import it.
 */

/** The pages: SPEC.md §2's handler routes and the command-line login confirmation. */
export const HOSTED_PAGES = [
  "sign-in",
  "sign-up",
  "sign-out",
  "forgot-password",
  "password-reset",
  "email-verification",
  "magic-link-callback",
  "oauth-callback",
  "account-settings",
  "team-invitation",
  "mfa",
  "cli-auth-confirm",
  "error",
] as const;
export type HostedPage = (typeof HOSTED_PAGES)[number];

/** The path of a project's hosted pages, without a trailing slash: `/projects/<project id>/handler`. */
export function hostedHandlerPath(projectId: string): string {
  return `/projects/${encodeURIComponent(projectId)}/handler`;
}

/** SPEC.md §2: the query parameter that carries where to go once signed in (or out). */
export const RETURN_TO_PARAM = "after_auth_return_to";

/**
 * Fired (cancelable) on `window` by an app with hosted pages instead of going to the hosted mfa page on another
 * origin, which cannot read the attempt code kept in the app's session storage: the page's `<auth-sign-in>`
 * asks for the code itself and cancels the event. Not cancelled (no such form on the page), the app goes there.
 */
export const MFA_REQUIRED_EVENT = "latchkey-mfa-required";
