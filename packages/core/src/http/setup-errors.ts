/**
 * Known errors that only the app's developer can fix — a wrong project id or key, a page on an origin the project
 * does not trust. People using the app can do nothing about them: widgets show them a plain message
 * (`isSetupError`), and the console tells the developer what to change (`tellSetupError`), once per code, naming
 * the app's options rather than the wire's headers (and not the other product's dashboard the wire's text names).
 * Short on purpose: every byte here is in the sign-in bundle.
 */
type App = { baseUrl: string; projectId: string };

const HINTS: Record<string, (app: App) => string> = {
  CURRENT_PROJECT_NOT_FOUND: (app) => `no project "${app.projectId}" at ${app.baseUrl}: check projectId`,
  INVALID_PUBLISHABLE_CLIENT_KEY: (app) => `publishableClientKey is not a key of project "${app.projectId}"`,
  CLIENT_AUTHENTICATION_REQUIRED: (app) => `project "${app.projectId}" requires a publishableClientKey`,
  REDIRECT_URL_NOT_WHITELISTED: (app) =>
    `${(globalThis as { location?: { origin: string } }).location?.origin ?? "this page"} is not a trusted domain: add it at ${app.baseUrl}/dashboard/projects/${app.projectId}/domains`,
};

const codeOf = (error: unknown) => String((error as { code?: unknown } | null)?.code);

/** Whether `error` is a mistake in the app's Latchkey setup rather than anything its user did. */
export function isSetupError(error: unknown): boolean {
  return Object.hasOwn(HINTS, codeOf(error));
}

const told = new Set<string>();

/**
 * A client app's setup mistake, told to the developer in the console once per code and page: the code, not the
 * wire's text, which names headers and another product's dashboard.
 */
export function tellSetupError(error: unknown, app: App): void {
  const code = codeOf(error);
  if (!isSetupError(error) || told.has(code)) return;
  told.add(code);
  console.error(`Latchkey: ${HINTS[code]!(app)} (${code})`);
}
