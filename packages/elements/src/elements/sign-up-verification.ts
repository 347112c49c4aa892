import { KnownError, type ClientApp, type ContactChannel } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { describeError, type ShownError } from "../base/errors.js";
import { field, focusError, formError, formValues, submit } from "../base/forms.js";
import { msg, str } from "../base/i18n.js";

/** How often the step asks whether the address is verified yet, while the page is in view. */
const CHECK_EVERY_SECONDS = 3;

/** The element the step lives in: the parts of a reactive element it uses (ours today, LitElement's too). */
interface Host extends HTMLElement {
  requestUpdate(): void;
  readonly updateComplete: Promise<unknown>;
  addController(controller: EmailVerificationStep): void;
  removeController(controller: EmailVerificationStep): void;
}

export interface EmailVerificationOptions {
  uid: string;
  /** The address the sign-up's verification mail went to. */
  email: string;
  /** Seconds between two mails the person may ask for. */
  cooldownSeconds: number;
  /** Moves focus to the step's heading, or its field. */
  focusStep(): void;
  /** Called once, when the address is verified. */
  verified(): void;
}

/**
 * What `<auth-sign-up verify-email>` shows once the account exists and its verification mail is out, as
 * Clerk's sign-up does: "Check your inbox" naming the address; Resend, usable again after a cooldown shown
 * as a countdown (the server has its own limit per address, and its refusal is shown); and "Wrong address?",
 * which changes the new account's address in place and mails the new one (the account stays one account,
 * and nobody else's address is left holding it). Whether the address is verified is asked every few seconds
 * and whenever the page comes back into view (the person opened the link in another tab); then `verified`.
 *
 * A reactive controller: its timers run only while the element is in the page.
 */
export class EmailVerificationStep {
  email: string;
  private changing = false;
  private busy = false;
  private error: ShownError | null = null;
  private notice = "";
  private resendAt = 0;
  private ticks = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private checking = false;
  private done = false;

  constructor(
    private readonly host: Host,
    private readonly app: ClientApp,
    private readonly options: EmailVerificationOptions,
  ) {
    this.email = options.email;
    // The sign-up has just sent the first mail.
    this.startCooldown();
    host.addController(this);
  }

  hostConnected(): void {
    this.timer ??= setInterval(this.tick, 1000);
    document.addEventListener("visibilitychange", this.check);
  }

  hostDisconnected(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    document.removeEventListener("visibilitychange", this.check);
  }

  render(): TemplateResult {
    const uid = this.options.uid;
    if (this.changing) {
      return html`<h2 tabindex="-1">${msg("Change your email address")}</h2>
        <form @submit=${this.changeAddress}>
          ${field({ uid, name: "email", label: msg("Email"), type: "email", autocomplete: "email", value: this.email, error: this.error, autofocus: true })}
          ${formError(this.error)} ${submit(msg("Use this address"), msg("Sending…"), this.busy)}
        </form>
        <div class="lk-footer"><button class="lk-link" type="button" @click=${() => this.showChangeForm(false)}>${msg("Cancel")}</button></div>`;
    }
    const wait = this.secondsToWait();
    const waitId = `${uid}-resend-wait`;
    return html`<h2 tabindex="-1">${msg("Check your inbox")}</h2>
      <p>${msg(str`We sent a link to ${this.email}. Open it to verify your email address, and this page goes on by itself.`)}</p>
      <p class="lk-note" role="status">${this.notice}</p>
      ${formError(this.error)}
      <div class="lk-stack">
        <button type="button" part="button" aria-disabled=${this.busy || wait > 0} aria-busy=${this.busy} aria-describedby=${wait > 0 ? waitId : nothing} @click=${this.resend}>${msg("Resend the email")}</button>
        ${wait > 0 ? html`<p class="lk-note" id=${waitId}>${msg(str`You can ask for another email in ${wait} s.`)}</p>` : nothing}
      </div>
      <div class="lk-footer"><button class="lk-link" type="button" @click=${() => this.showChangeForm(true)}>${msg("Wrong address?")}</button></div>`;
  }

  private secondsToWait(): number {
    return Math.max(0, Math.ceil((this.resendAt - Date.now()) / 1000));
  }

  private startCooldown(): void {
    this.resendAt = Date.now() + this.options.cooldownSeconds * 1000;
  }

  private tick = (): void => {
    // The countdown.
    if (this.resendAt > Date.now() - 1000) this.host.requestUpdate();
    if (++this.ticks % CHECK_EVERY_SECONDS === 0) void this.check();
  };

  private check = async (): Promise<void> => {
    if (this.checking || this.done || document.hidden) return;
    this.checking = true;
    try {
      if ((await this.primaryChannel()).isVerified) this.finish();
    } catch {
      // Offline for a moment, say: the next tick asks again.
    } finally {
      this.checking = false;
    }
  };

  private async primaryChannel(): Promise<ContactChannel> {
    const primary = (await this.app.listContactChannels()).find((channel) => channel.isPrimary);
    if (!primary) throw new Error("The new account has no primary email address.");
    return primary;
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.hostDisconnected();
    this.host.removeController(this);
    this.options.verified();
  }

  private resend = (): Promise<void> =>
    this.secondsToWait() > 0 ? Promise.resolve() : this.run(async () => {
      const channel = await this.primaryChannel();
      if (channel.isVerified) return this.finish();
      // Whatever the answer, the next mail waits a full cooldown: a refusal (the server's own limit) too.
      this.startCooldown();
      await this.app.sendContactChannelVerificationEmail(channel.id);
      this.notice = msg(str`We sent a new link to ${this.email}.`);
    });

  private changeAddress = (event: Event): Promise<void> => {
    const email = (formValues(event).email ?? "").trim();
    return this.run(async () => {
      const channel = await this.primaryChannel();
      // The new value is unverified (the server says so), and the old address's link stops working.
      await this.app.updateContactChannel(channel.id, { value: email });
      this.email = email;
      this.changing = false;
      this.startCooldown();
      this.host.requestUpdate();
      this.options.focusStep();
      await this.app.sendContactChannelVerificationEmail(channel.id);
      this.notice = msg(str`We sent a new link to ${email}.`);
    });
  };

  private showChangeForm(changing: boolean): void {
    this.changing = changing;
    this.error = null;
    this.notice = "";
    this.host.requestUpdate();
    this.options.focusStep();
  }

  /** One action at a time; a click on the busy (aria-disabled) button does nothing. */
  private async run(action: () => Promise<void>): Promise<void> {
    if (this.busy || this.done) return;
    this.busy = true;
    this.error = null;
    this.notice = "";
    this.host.requestUpdate();
    try {
      await action();
    } catch (error) {
      // Verified meanwhile (in another tab): nothing left to send.
      if (error instanceof KnownError && error.code === "EMAIL_ALREADY_VERIFIED") return this.finish();
      this.error = describeError(error);
      focusError(this.host);
    } finally {
      this.busy = false;
      this.host.requestUpdate();
    }
  }
}
