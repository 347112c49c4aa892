import type { ClientApp } from "@latchkey/core";
import { KnownError } from "@latchkey/protocol/errors/known-error";
import { html, type TemplateResult } from "lit-html";
import { AuthElement } from "../base/auth-element.js";
import { describeError } from "../base/errors.js";
import { msg } from "../base/i18n.js";
import { MFA_ATTEMPT_CODE_KEY } from "./sign-in.js";

/**
 * The page a provider sign-in comes back to (the oauth-callback handler page): checks the state, exchanges the
 * code, then goes to the page the sign-in or link started from, or after-sign-in (new users: after-sign-up).
 * Users with two-factor authentication continue on the mfa page.
 *
 * @element auth-oauth-callback
 * @fires auth-signed-in - After signing in or linking; detail `{ userId, isNewUser }`.
 * @attr no-redirect - Stay on the page afterwards.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart card - The box around the message.
 * @csspart link - The link onward: "Continue" once signed in, "Go to sign in" after an error.
 */
export class AuthOAuthCallbackElement extends AuthElement {
  static override properties = { noRedirect: { type: Boolean, attribute: "no-redirect" }, state: { state: true }, message: { state: true } };

  declare noRedirect: boolean;
  declare state: "working" | "done" | "failed";
  declare message: string;
  private started = false;

  constructor() {
    super();
    this.noRedirect = false;
    this.state = "working";
    this.message = "";
  }

  protected override appAttached(app: ClientApp): void {
    if (this.started) return;
    this.started = true;
    app.callOAuthCallback({ noRedirect: this.noRedirect }).then(
      (result) => {
        if (!result) {
          // Reloaded, or opened from history: the code is used up or was never ours.
          this.state = "failed";
          this.message = msg("This sign-in has already been used or has expired. Please sign in again.");
          return;
        }
        this.state = "done";
        this.message = msg("You are signed in.");
        this.emit("auth-signed-in", result);
      },
      async (error: unknown) => {
        if (error instanceof KnownError && error.code === "MULTI_FACTOR_AUTHENTICATION_REQUIRED") {
          sessionStorage.setItem(MFA_ATTEMPT_CODE_KEY, String(error.details?.attempt_code ?? ""));
          await app.redirectTo("mfa", { replace: true });
          return;
        }
        this.state = "failed";
        this.message = describeError(error).message;
      },
    );
  }

  protected override render(): TemplateResult {
    const body =
      this.state === "working"
        ? html`<p class="lk-note" role="status">${msg("Signing you in…")}</p>`
        : this.state === "done"
          ? html`<p role="status">${this.message}</p><div class="lk-footer"><a part="link" href=${this.app?.urls.home ?? "/"}>${msg("Continue")}</a></div>`
          : html`<p class="lk-alert" role="alert">${this.message}</p><div class="lk-footer"><a part="link" href=${this.app?.urls.signIn ?? "/"}>${msg("Go to sign in")}</a></div>`;
    return html`<div class="lk-card" part="card"><h2 tabindex="-1">${msg("Signing in")}</h2>${body}</div>`;
  }
}
