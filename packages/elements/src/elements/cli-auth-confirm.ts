import { completeCliLogin, type CurrentUser, type Loadable } from "@latchkey/core";
import { html, type TemplateResult } from "lit-html";
import { AuthElement } from "../base/auth-element.js";
import { describeError } from "../base/errors.js";
import { msg, str } from "../base/i18n.js";
import { pageParam } from "../base/navigation.js";

/**
 * The page a command-line tool sends its user to (`{handler}/cli-auth-confirm?login_code=…`): signed out, it
 * asks to sign in first and comes back; signed in, it says who the tool will act as and confirms on request.
 *
 * @element auth-cli-auth-confirm
 * @fires auth-cli-login-confirmed - After the tool was given its session.
 * @attr login-code - The CLI's login code; default: the page URL's `login_code` parameter.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart card - The box around the message.
 * @csspart submit - The confirm button.
 * @csspart button - The "Sign in" link shown when signed out.
 */
export class AuthCliAuthConfirmElement extends AuthElement {
  static override properties = { loginCode: { type: String, attribute: "login-code" }, state: { state: true }, message: { state: true } };

  declare loginCode: string | null;
  declare state: "asking" | "working" | "done" | "failed" | "cancelled";
  declare message: string;
  private readonly user = this.watch((app) => app.$user);

  constructor() {
    super();
    this.loginCode = null;
    this.state = "asking";
    this.message = "";
  }

  protected override render(): TemplateResult {
    const card = (body: TemplateResult) => html`<div class="lk-card" part="card"><h2 tabindex="-1">${msg("Sign in to a command-line tool")}</h2>${body}</div>`;
    const user = this.user() as Loadable<CurrentUser | null> | undefined;
    const code = this.loginCode ?? pageParam("login_code");
    if (!code) return card(html`<p class="lk-alert" role="alert">${msg("This link has no login code. Start the login from your terminal again.")}</p>`);
    if (user?.status !== "ready") return card(html`<p class="lk-note" role="status">${msg("Loading…")}</p>`);
    if (!user.value) {
      const signIn = new URL(this.app!.urls.signIn, location.href);
      signIn.searchParams.set("after_auth_return_to", location.pathname + location.search);
      return card(html`<p>${msg("Sign in first; you will come back here to confirm.")}</p>
        <a class="lk-button lk-primary" part="button" href=${signIn.pathname + signIn.search}>${msg("Sign in")}</a>`);
    }
    switch (this.state) {
      case "done":
        return card(html`<p role="status">${msg("The command-line tool is signed in. You can close this window and return to your terminal.")}</p>`);
      case "cancelled":
        return card(html`<p role="status">${msg("Nothing was shared with the command-line tool. You can close this window.")}</p>`);
      case "failed":
        return card(html`<p class="lk-alert" role="alert">${this.message}</p>`);
      default: {
        const who = user.value.primaryEmail ?? user.value.displayName ?? user.value.id;
        return card(html`<p>${msg(str`A command-line tool asks to act as ${who}. Only confirm if you started this login in your terminal.`)}</p>
          <div class="lk-stack">
            <button type="submit" part="submit" ?disabled=${this.state === "working"} aria-busy=${this.state === "working" ? "true" : "false"} @click=${() => this.confirm(code)}>${this.state === "working" ? msg("Confirming…") : msg("Confirm")}</button>
            <button type="button" @click=${() => (this.state = "cancelled")}>${msg("Cancel")}</button>
          </div>`);
      }
    }
  }

  private async confirm(code: string): Promise<void> {
    if (!this.app || this.state === "working") return;
    this.state = "working";
    try {
      await completeCliLogin(this.app, code);
      this.state = "done";
      this.emit("auth-cli-login-confirmed");
    } catch (error) {
      this.state = "failed";
      this.message = describeError(error).message;
    }
    this.focusStep();
  }
}
