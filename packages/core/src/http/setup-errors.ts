import type { KnownError } from "@latchkey/protocol/errors/known-error";

/**
 * Known errors that only the app's developer can fix — a wrong project id or key, a page on an origin the project
 * does not trust. People using the app can do nothing about them: widgets show them a plain message
 * (`isSetupError`), and the console tells the developer what to change (`setupHint`), once per code and app.
 */
const SETUP_ERRORS = new Set([
  "CURRENT_PROJECT_NOT_FOUND",
  "INVALID_PUBLISHABLE_CLIENT_KEY",
  "CLIENT_AUTHENTICATION_REQUIRED",
  "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
  "REDIRECT_URL_NOT_WHITELISTED",
  // Their wire text sends the developer to another product's dashboard.
  "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
  "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
]);

/** Whether `error` is a mistake in the app's Latchkey setup rather than anything its user did. */
export function isSetupError(error: unknown): boolean {
  return typeof (error as KnownError | null)?.code === "string" && SETUP_ERRORS.has((error as KnownError).code);
}

/** What the developer should change, in words naming the app's options rather than the wire's headers. */
export function setupHint(error: KnownError, app: { baseUrl: string; projectId: string }): string | undefined {
  const project = JSON.stringify(app.projectId);
  switch (error.code) {
    case "CURRENT_PROJECT_NOT_FOUND":
      return `the server at ${app.baseUrl} has no project ${project}: check projectId.`;
    case "INVALID_PUBLISHABLE_CLIENT_KEY":
    case "INVALID_OAUTH_CLIENT_ID_OR_SECRET":
      return `the publishable client key is not one of project ${project}: check publishableClientKey.`;
    case "CLIENT_AUTHENTICATION_REQUIRED":
      return `project ${project} requires a publishable client key: pass publishableClientKey.`;
    case "REDIRECT_URL_NOT_WHITELISTED": {
      const origin = (globalThis as { location?: { origin: string } }).location?.origin ?? "this page's origin";
      return `${origin} is not a trusted domain of project ${project}: add it at ${projectPage(app, "domains")}`;
    }
    case "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS":
    case "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS":
      return `shared OAuth keys give no extra scopes or access tokens: set the provider's own client id and secret at ${projectPage(app, "authentication")}`;
  }
  return undefined;
}

function projectPage(app: { baseUrl: string; projectId: string }, page: string): string {
  return `${app.baseUrl}/dashboard/projects/${encodeURIComponent(app.projectId)}/${page}`;
}
