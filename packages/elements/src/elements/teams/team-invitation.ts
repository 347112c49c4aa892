import type { ClientApp, CurrentUser, Loadable, Project } from "@latchkey/core";
import { KnownError } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../../base/auth-element.js";
import { describeError } from "../../base/errors.js";
import { msg, str } from "../../base/i18n.js";
import { pageParam } from "../../base/navigation.js";
import { accountCss } from "../account/account-common.js";

type Step = "checking" | "ready" | "invalid" | "joined" | "declined";

/**
 * The page a team invitation mail links to. Signed out, it explains and links to sign-in and to sign-up,
 * which bring the person back here afterwards (`after_auth_return_to`); the protocol names the team only to
 * someone signed in, and does not name the inviter (the mail does). Signed in, it names the team (without
 * using the code up) and offers Accept or Decline; accepting joins the team and selects it. Unusable links (unknown,
 * already used, expired) say so in words.
 *
 * @element auth-team-invitation
 * @fires auth-team-invitation-accepted - After joining the team; detail `{ teamId }`.
 * @attr code - The invitation code; default: the page URL's `code` parameter.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart card - The box around the page.
 * @csspart link - The sign-in, sign-up and continue links.
 */
export class AuthTeamInvitationElement extends AuthElement {
  static override properties = { code: { type: String }, step: { state: true }, busy: { state: true }, error: { state: true }, teamName: { state: true } };
  static override css = accountCss;

  declare code: string | null;
  declare step: Step;
  declare busy: boolean;
  declare error: string | null;
  declare teamName: string | null;
  private readonly user = this.watch((app) => app.$user);
  private readonly project = this.watch((app) => app.$project);
  private teamId: string | null = null;
  /** The user the details were loaded for: another sign-in on the page loads them again. */
  private checkedFor: string | null = null;

  constructor() {
    super();
    this.code = null;
    this.step = "checking";
    this.busy = false;
    this.error = null;
    this.teamName = null;
  }

  private invitationCode(): string | null {
    return this.code ?? pageParam("code");
  }

  /** Looks the invitation up once the signed-in user is known (details need a signed-in user). */
  protected override updated(): void {
    const state = this.user() as Loadable<CurrentUser | null> | undefined;
    const user = state?.status === "ready" ? state.value : null;
    if (!this.app || !user || this.checkedFor === user.id || this.step === "joined") return;
    this.checkedFor = user.id;
    void this.check(this.app);
  }

  private async check(app: ClientApp): Promise<void> {
    const code = this.invitationCode();
    this.step = "checking";
    if (!code) {
      this.fail(msg("This link has no invitation code. Ask for a new invitation."));
      return;
    }
    try {
      const details = await app.getTeamInvitationDetails(code);
      this.teamId = details.teamId;
      this.teamName = details.teamDisplayName;
      this.step = "ready";
      this.focusStep();
    } catch (error) {
      this.fail(invitationError(error));
    }
  }

  private fail(message: string): void {
    this.step = "invalid";
    this.error = message;
    this.focusStep();
  }

  protected override render(): TemplateResult {
    const state = this.user() as Loadable<CurrentUser | null> | undefined;
    return html`<div class="lk-card" part="card"><h2 tabindex="-1">${msg("Team invitation")}</h2>${this.body(state)}</div>`;
  }

  private body(state: Loadable<CurrentUser | null> | undefined): TemplateResult {
    if (state?.status === "error") return html`<p class="lk-alert" role="alert">${describeError(state.error).message}</p>`;
    if (state?.status !== "ready") return html`<p class="lk-note" role="status" aria-busy="true">${msg("Loading…")}</p>`;
    if (!state.value) {
      if (!this.invitationCode()) return html`<p class="lk-alert" role="alert">${msg("This link has no invitation code. Ask for a new invitation.")}</p>`;
      return html`<p>${msg("You have been invited to join a team. Sign in or create an account to see the invitation and accept it.")}</p>
        <div class="lk-footer"><a class="lk-button lk-primary" part="link" href=${this.returningUrl(this.app?.urls.signIn ?? "/handler/sign-in")}>${msg("Sign in to continue")}</a>
          ${this.signUpEnabled() ? html`<a class="lk-button" part="link" href=${this.returningUrl(this.app!.urls.signUp)}>${msg("Create an account")}</a>` : nothing}</div>`;
    }
    const home = this.app?.urls.home ?? "/";
    switch (this.step) {
      case "checking":
        return html`<p class="lk-note" role="status" aria-busy="true">${msg("Checking the invitation…")}</p>`;
      case "invalid":
        return html`<p class="lk-alert" role="alert">${this.error}</p><div class="lk-footer"><a part="link" href=${home}>${msg("Go to the home page")}</a></div>`;
      case "joined":
        return html`<p role="status">${msg(str`You have joined ${this.teamName ?? ""}.`)}</p>
          <div class="lk-footer"><a class="lk-button lk-primary" part="link" href=${this.app?.urls.afterSignIn ?? home}>${msg("Continue")}</a></div>`;
      case "declined":
        return html`<p role="status">${msg("You have declined the invitation. The link still works if you change your mind.")}</p>
          <div class="lk-footer"><a part="link" href=${home}>${msg("Go to the home page")}</a></div>`;
      default:
        return html`<p>${msg(str`You have been invited to join ${this.teamName ?? ""}.`)}</p>
          <p class="lk-note">${msg(str`Signed in as ${state.value.primaryEmail ?? state.value.displayName ?? ""}.`)}</p>
          ${this.error ? html`<p class="lk-alert" role="alert">${this.error}</p>` : nothing}
          <div class="lk-actions">
            <button type="button" class="lk-primary" ?disabled=${this.busy} aria-busy=${this.busy ? "true" : "false"} @click=${this.accept}>
              ${this.busy ? msg("Joining…") : msg("Accept")}</button>
            <button type="button" ?disabled=${this.busy} @click=${this.decline}>${msg("Decline")}</button>
          </div>`;
    }
  }

  private signUpEnabled(): boolean {
    const project = this.project() as Loadable<Project> | undefined;
    return project?.status === "ready" && project.value.config.signUpEnabled;
  }

  /** Sign-in or sign-up, then back to this very page (with its code), as `after_auth_return_to`. */
  private returningUrl(page: string): string {
    const url = new URL(page, location.href);
    url.searchParams.set("after_auth_return_to", location.pathname + location.search + location.hash);
    return url.origin === location.origin ? url.pathname + url.search : url.href;
  }

  private accept = async (): Promise<void> => {
    const code = this.invitationCode();
    if (this.busy || !this.app || !code) return;
    this.busy = true;
    this.error = null;
    try {
      await this.app.acceptTeamInvitation(code);
      // Joining is why the person came: the new team becomes the one they work in.
      if (this.teamId) await this.app.selectTeam(this.teamId);
      this.step = "joined";
      this.emit("auth-team-invitation-accepted", { teamId: this.teamId });
      this.focusStep();
    } catch (error) {
      this.error = invitationError(error);
    } finally {
      this.busy = false;
    }
  };

  private decline = (): void => {
    // The protocol has no "decline": the code simply stays unused until it expires.
    this.step = "declined";
    this.focusStep();
  };
}

/** Invitation links fail for their own reasons; say them in terms of the invitation, not of a "code". */
function invitationError(error: unknown): string {
  if (error instanceof KnownError) {
    switch (error.code) {
      case "VERIFICATION_CODE_NOT_FOUND":
        return msg("This invitation link is not valid. Ask for a new invitation.");
      case "SCHEMA_ERROR":
        // A mangled link (a code cut short by a mail program) fails the server's code format check.
        if (/\bcode\b/.test(error.message)) return msg("This invitation link is not valid. Ask for a new invitation.");
        break;
      case "VERIFICATION_CODE_EXPIRED":
        return msg("This invitation has expired. Ask for a new invitation.");
      case "VERIFICATION_CODE_ALREADY_USED":
        return msg("This invitation has already been used.");
      case "TEAM_NOT_FOUND":
        return msg("The team of this invitation no longer exists.");
    }
  }
  return describeError(error).message;
}
