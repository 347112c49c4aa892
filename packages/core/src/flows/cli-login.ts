import { CliAuthError, CliAuthExpiredError, CliAuthUsedError } from "@latchkey/protocol/errors/cli";
import { CLI_POLL_INTERVAL_MILLIS } from "../constants.js";
import { internalsOf, type ClientApp } from "../apps/client-app.js";
import { HttpStatusError } from "../http/errors.js";

export interface CliLoginOptions {
  /** The app whose handler serves `/handler/cli-auth-confirm`, e.g. `https://app.example.com`. */
  appUrl: string;
  /** How long the login may take; the server's default when absent. */
  expiresInMillis?: number;
  /** Polls before giving up; default: until the request expires. */
  maxAttempts?: number;
  /** Pause between polls (SPEC.md §9: 2000 ms). */
  waitTimeMillis?: number;
  /** Shows the person the URL to open (default: printed to the console). */
  promptLink?: (url: string) => void;
  /** Stops polling (Ctrl-C in a CLI). */
  signal?: AbortSignal;
}

/**
 * Signs a command-line tool in through the browser (SPEC.md §4 "CLI login"): starts a login, shows the
 * confirmation page's URL, then polls until the person confirms there, and resolves with the new session's
 * refresh token. Fails with the protocol's CLI errors and SPEC.md §8 messages: expired, already used, timed
 * out, or an unexpected answer.
 */
export async function promptCliLogin(app: ClientApp, options: CliLoginOptions): Promise<string> {
  const { ctx } = internalsOf(app);
  const started = await cliRequest(ctx, "/auth/cli", { expires_in_millis: options.expiresInMillis });
  if (started.status >= 300) throw new CliAuthError(`Failed to initiate CLI auth: ${started.status} ${started.text}`);
  const { polling_code: pollingCode, login_code: loginCode } = started.body as { polling_code: string; login_code: string };

  const url = `${options.appUrl.replace(/\/+$/, "")}${ctx.urls.handler.replace(/\/+$/, "")}/cli-auth-confirm?login_code=${encodeURIComponent(loginCode)}`;
  (options.promptLink ?? ((link) => console.log(`Please visit the following URL to authenticate:\n${link}`)))(url);

  for (let attempt = 0; attempt < (options.maxAttempts ?? Infinity); attempt++) {
    options.signal?.throwIfAborted();
    const polled = await cliRequest(ctx, "/auth/cli/poll", { polling_code: pollingCode });
    if (polled.status >= 300) throw new CliAuthError(`Failed to initiate CLI auth: ${polled.status} ${polled.text}`);
    const body = polled.body as { status: string; refresh_token?: string };
    if (polled.status === 201 && body.status === "success" && body.refresh_token) return body.refresh_token;
    if (body.status === "expired") throw new CliAuthExpiredError("CLI authentication request expired. Please try again.");
    if (body.status === "used") throw new CliAuthUsedError("This authentication token has already been used.");
    if (body.status !== "waiting") throw new CliAuthError(`Unexpected status from CLI auth polling: ${body.status}`);
    await sleep(options.waitTimeMillis ?? CLI_POLL_INTERVAL_MILLIS, options.signal);
  }
  throw new CliAuthError("Timed out waiting for CLI authentication.");
}

/**
 * The browser half: the signed-in person confirms the login code of a CLI, which hands the CLI a session of
 * its own (a new session of this user).
 */
export async function completeCliLogin(app: ClientApp, loginCode: string): Promise<void> {
  const { ctx } = internalsOf(app);
  const tokens = await ctx.session.getTokens(0);
  if (!tokens?.refreshToken) throw new Error("Sign in before confirming a CLI login");
  await ctx.call({ method: "POST", path: "/auth/cli/complete", body: { login_code: loginCode, refresh_token: tokens.refreshToken } });
}

/** A CLI request whose status matters (201 means success), with known errors thrown as usual. */
async function cliRequest(ctx: ReturnType<typeof internalsOf>["ctx"], path: string, body: Record<string, unknown>): Promise<{ status: number; body: unknown; text: string }> {
  try {
    const response = await ctx.http.send({ method: "POST", path, body, accessType: ctx.accessType, session: null });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as unknown, text };
  } catch (error) {
    if (error instanceof HttpStatusError) return { status: error.status, body: null, text: error.body };
    throw error;
  }
}

function sleep(millis: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, millis);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}
