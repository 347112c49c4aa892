import type { ClientApp } from "@latchkey/core";
import { html, type TemplateResult } from "lit-html";
import { AuthElement } from "./auth-element.js";
import { describeError } from "./errors.js";
import { pageParam } from "./navigation.js";
import { msg } from "./i18n.js";

/**
 * A page an emailed link opens: it takes the link's code (attribute `code`, else the URL's `code`
 * parameter), acts on it once when the app is known, and shows what happened.
 */
export abstract class CodeLinkElement extends AuthElement {
  static override properties = { code: { type: String }, state: { state: true }, message: { state: true } };

  declare code: string | null;
  declare state: "working" | "done" | "failed";
  declare message: string;
  private started = false;

  // Getters, not fields: they are read at each render, in the language of that moment.
  protected abstract get heading(): string;
  protected abstract get workingMessage(): string;
  protected abstract perform(app: ClientApp, code: string): Promise<string>;

  constructor() {
    super();
    this.code = null;
    this.state = "working";
    this.message = "";
  }

  protected override appAttached(app: ClientApp): void {
    if (this.started) return;
    this.started = true;
    const code = this.code ?? pageParam("code");
    if (!code) {
      this.state = "failed";
      this.message = msg("This link has no code. Open the link from the email again.");
      return;
    }
    this.perform(app, code).then(
      (message) => {
        this.state = "done";
        this.message = message;
      },
      (error: unknown) => {
        this.state = "failed";
        this.message = describeError(error).message;
      },
    );
  }

  protected override render(): TemplateResult {
    const body =
      this.state === "working"
        ? html`<p class="lk-note" role="status">${this.workingMessage}</p>`
        : this.state === "done"
          ? html`<p role="status">${this.message}</p><div class="lk-footer"><a part="link" href=${this.app?.urls.home ?? "/"}>${msg("Continue")}</a></div>`
          : html`<p class="lk-alert" role="alert">${this.message}</p><div class="lk-footer"><a part="link" href=${this.app?.urls.signIn ?? "/"}>${msg("Go to sign in")}</a></div>`;
    return html`<div class="lk-card" part="card"><h2 tabindex="-1">${this.heading}</h2>${body}</div>`;
  }
}
