import type { ClientApp, ContactChannel } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../../base/auth-element.js";
import type { PropertyValues } from "lit";
import { describeError, type ShownError } from "../../base/errors.js";
import { OneAtATime } from "../../base/one-at-a-time.js";
import { field, focusError, formError, formValues, submit } from "../../base/forms.js";
import { msg, str } from "../../base/i18n.js";
import { accountCss, keepFocusIn, userIdOf } from "./account-common.js";
import { confirmAction } from "./confirm-dialog.js";
import { reasonNote, WaysIn, type Change } from "./ways-in.js";

/**
 * The signed-in user's email addresses (contact channels): which is primary, verified and used for signing
 * in; add one, send its verification mail, make it primary, use it (or stop using it) for sign-in, remove it.
 * Stopping and removing ask first, and are held back, with the reason shown, for the address that is the
 * user's last way to sign in (see ways-in.ts).
 *
 * @element auth-email-settings
 * @fires auth-contact-channels-changed - After an address was added, changed or removed.
 * @attr autofocus - Focus the new address field as soon as it shows.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart base - The section.
 * @csspart input - The new address input.
 * @csspart submit - The add button.
 * @csspart dialog - The confirmation dialog for removing an address or no longer using it for sign-in.
 * @csspart reason - Why an address cannot be removed or stop being used for sign-in.
 * @csspart label - The new address input's label.
 * @csspart error - The form-level error.
 */
export class AuthEmailSettingsElement extends AuthElement {
  static override css = accountCss;
  static override properties = { channels: { state: true }, busy: { state: true }, working: { state: true }, error: { state: true }, status: { state: true } };

  protected declare channels: ContactChannel[] | null;
  protected declare busy: boolean;
  // The channel an action is running on, so its buttons show they are busy.
  protected declare working: string | null;
  protected declare error: ShownError | null;
  protected declare status: string;

  private readonly user = this.watch((app) => app.$user);
  private readonly project = this.watch((app) => app.$project);
  private readonly waysIn = new WaysIn(this, { channels: () => this.channels });
  private loadedFor: string | null | undefined;

  constructor() {
    super();
    this.channels = null;
    this.busy = false;
    this.working = null;
    this.error = null;
    this.status = "";
  }

  /** Loads the list once the user is known, and again if another user signs in. */
  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    this.waysIn.track(this.app, this.user(), this.project());
    const userId = userIdOf(this.user());
    if (userId === undefined || userId === this.loadedFor || !this.app) return;
    this.loadedFor = userId;
    this.error = null;
    this.channels = null;
    if (userId) void this.load(this.app);
  }

  private async load(app: ClientApp): Promise<void> {
    try {
      this.channels = await app.listContactChannels();
    } catch (error) {
      this.error = { field: "form", message: describeError(error).message };
    }
  }

  protected override render(): TemplateResult {
    return html`<div class="lk-section" part="base">
      ${this.loadedFor === null
        ? html`<p class="lk-note">${msg("Sign in to manage your account.")}</p>`
        : this.channels === null && !this.error
          ? html`<p class="lk-note" role="status" aria-busy="true">${msg("Loading…")}</p>`
          : nothing}
      ${this.channels ? html`<ul class="lk-list">${this.channels.map((channel) => this.channel(channel))}</ul>` : nothing}
      ${this.error?.field === "form" ? formError(this.error) : nothing}
      <p class="lk-note" role="status">${this.status}</p>
      <form @submit=${this.add}>
        ${field({ uid: this.uid, name: "email", label: msg("Add an email address"), type: "email", autocomplete: "email", error: this.error })}
        <label class="lk-check"><input type="checkbox" name="used-for-auth" checked /> ${msg("Use it for signing in")}</label>
        ${submit(msg("Add email"), msg("Adding…"), this.busy)}
      </form>
    </div>`;
  }

  private channel(channel: ContactChannel): TemplateResult {
    const valueId = `${this.uid}-${channel.id}`;
    const reasonId = `${valueId}-reason`;
    const busy = this.working === channel.id;
    const button = (label: string, action: () => Promise<unknown>) =>
      html`<button type="button" aria-describedby=${valueId} ?disabled=${busy} @click=${() => this.run(channel, action)}>${label}</button>`;
    // The last way in: stopping and removing are held back and point to the reason (removing an address that
    // does not sign in changes nothing about signing in).
    const reason = channel.usedForAuth && this.waysIn.blocks(stopUsing(channel)) ? onlyAddressReason() : null;
    const heldBack = (label: string, onClick: () => unknown, danger = false) =>
      html`<button type="button" class=${danger ? "lk-danger" : nothing} aria-describedby=${reason ? `${valueId} ${reasonId}` : valueId}
        title=${reason ?? nothing} ?disabled=${busy || !!reason} @click=${onClick}>${label}</button>`;
    const app = this.app!;
    return html`<li aria-busy=${busy ? "true" : "false"}>
      <span class="lk-grow" id=${valueId}>${channel.value}</span>
      ${channel.isPrimary ? html`<span class="lk-badge">${msg("Primary")}</span>` : nothing}
      <span class="lk-badge">${channel.isVerified ? msg("Verified") : msg("Not verified")}</span>
      ${channel.usedForAuth ? html`<span class="lk-badge">${msg("Used for sign-in")}</span>` : nothing}
      <span class="lk-actions">
        ${channel.isVerified
          ? nothing
          : button(msg("Send verification email"), async () => {
              await app.sendContactChannelVerificationEmail(channel.id);
              this.status = msg(str`A verification email has been sent to ${channel.value}.`);
            })}
        ${channel.isPrimary ? nothing : button(msg("Make primary"), () => app.updateContactChannel(channel.id, { isPrimary: true }))}
        ${channel.usedForAuth
          ? heldBack(msg("Stop using for sign-in"), () => this.stopUsing(channel))
          : button(msg("Use for sign-in"), () => app.updateContactChannel(channel.id, { usedForAuth: true }))}
        ${heldBack(msg("Remove"), () => this.removeChannel(channel), true)}
      </span>
      ${reasonNote(reasonId, reason)}
    </li>`;
  }

  /** Asks first (the opener stays enabled meanwhile, so focus can return to it), then removes. */
  private async removeChannel(channel: ContactChannel): Promise<void> {
    const confirmed = await confirmAction(this, {
      title: msg("Remove this email address?"),
      message: msg(str`${channel.value} will no longer belong to your account.`),
      confirmLabel: msg("Remove"),
    });
    if (confirmed) await this.run(channel, () => this.app!.deleteContactChannel(channel.id), (facts) => ({ channels: facts.channels.filter((c) => c.id !== channel.id) }));
  }

  /** Asks first: with no other address used for sign-in, the password stops working too. */
  private async stopUsing(channel: ContactChannel): Promise<void> {
    const confirmed = await confirmAction(this, {
      title: msg("Stop using this address for sign-in?"),
      message: msg(str`You will no longer be able to sign in with ${channel.value}.`),
      confirmLabel: msg("Stop using for sign-in"),
    });
    if (confirmed) await this.run(channel, () => this.app!.updateContactChannel(channel.id, { usedForAuth: false }), stopUsing(channel));
  }

  private readonly actions = new OneAtATime();

  /**
   * Runs one channel action (after any still running), then reloads the list (the server decides what changed, e.g.
   * the old primary).
   * An action that could take away a way in (`change`) is checked again on what the server says now.
   */
  private run(channel: ContactChannel, action: () => Promise<unknown>, change?: Change): Promise<void> {
    return this.actions.run(() => this.runNow(channel, action, change));
  }

  private async runNow(channel: ContactChannel, action: () => Promise<unknown>, change?: Change): Promise<void> {
    if (!this.app) return;
    const app = this.app;
    this.working = channel.id;
    this.error = null;
    this.status = "";
    try {
      if (change && (await this.waysIn.blocksNow(app, change))) {
        this.error = { field: "form", message: onlyAddressReason() };
        // What this page showed was out of date (another tab?): show what holds the button back now.
        await Promise.all([this.load(app), app.$user.refresh()]);
        return;
      }
      await action();
      await this.load(app);
      this.emit("auth-contact-channels-changed");
    } catch (error) {
      this.error = { field: "form", message: describeError(error).message };
    } finally {
      this.working = null;
    }
    // Once the buttons are enabled again (a disabled button cannot take focus).
    void keepFocusIn(this, `[aria-describedby~="${this.uid}-${channel.id}"]:not(:disabled)`, "input[name=email]");
  }

  private add = async (event: Event): Promise<void> => {
    const form = event.target as HTMLFormElement;
    const { email = "", "used-for-auth": usedForAuth } = formValues(event);
    if (this.busy || !this.app) return;
    this.busy = true;
    this.error = null;
    this.status = "";
    try {
      await this.app.addContactChannel({ value: email.trim(), usedForAuth: usedForAuth === "on" });
      form.reset();
      await this.load(this.app);
      this.status = msg(str`${email.trim()} has been added. Send it a verification email to confirm it is yours.`);
      this.emit("auth-contact-channels-changed");
    } catch (error) {
      this.error = describeError(error);
      focusError(this);
    } finally {
      this.busy = false;
    }
  };
}

/** The address no longer signs in (what "Stop using for sign-in" does; removing it counts the same). */
function stopUsing(channel: ContactChannel): Change {
  return (facts) => ({ channels: facts.channels.map((c) => (c.id === channel.id ? { ...c, usedForAuth: false } : c)) });
}

const onlyAddressReason = (): string =>
  msg("This address is your only way to sign in. To remove it or stop using it for sign-in, first add another way to sign in.");
