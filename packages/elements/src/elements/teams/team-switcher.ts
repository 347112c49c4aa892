import type { CurrentUser, Loadable, Project, Team } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../../base/auth-element.js";
import { AVATAR_CSS } from "../../base/avatar.js";
import { describeError, type ShownError } from "../../base/errors.js";
import { field, formError, formValues, submit } from "../../base/forms.js";
import { msg } from "../../base/i18n.js";
import { accountCss } from "../account/account-common.js";
import { teamAvatar } from "./team-avatar.js";

/** Type-ahead forgets what was typed after this long without a key, as native selects do. */
const TYPE_AHEAD_RESET_MILLIS = 700;

/**
 * The signed-in user's selected team, and a listbox to switch to another. It follows the WAI-ARIA
 * select-only combobox/listbox pattern: the button opens the list with the selected team active; the list
 * keeps focus and points at the active option with `aria-activedescendant`; arrows, Home and End move,
 * typing a name's first letters jumps to it, Enter or Space chooses, Escape closes and returns to the
 * button. With `allow-create`, and when the project lets users create teams, a "Create team" entry at the
 * end of the list asks for a name in a dialog and selects the new team.
 *
 * @element auth-team-switcher
 * @fires auth-team-changed - After another team was selected (or a new one created); detail `{ teamId }`.
 * @attr allow-create - Offer creating a team (only shown when the project allows client team creation).
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart button - The button showing the selected team.
 * @csspart avatar - The teams' avatars.
 * @csspart listbox - The list of teams.
 * @csspart dialog - The dialog asking for a new team's name.
 * @csspart input - The new team name input.
 * @csspart submit - The create button.
 * @csspart label - The new team name input's label.
 */
export class AuthTeamSwitcherElement extends AuthElement {
  static override properties = {
    allowCreate: { type: Boolean, attribute: "allow-create" },
    open: { state: true },
    active: { state: true },
    busy: { state: true },
    error: { state: true },
  };
  static override css = `${accountCss}${AVATAR_CSS}
:where(.lk-ts){position:relative;display:inline-block;max-width:100%}
:where(.lk-ts>button){display:inline-flex;align-items:center;gap:.5rem;max-width:100%;padding:.3rem .75rem .3rem .3rem}
:where(.lk-ts>button)::after{content:"";border:.3em solid transparent;border-top-color:currentColor;margin-top:.3em}
:where(.lk-ts [role=listbox]){position:absolute;inset-inline-start:0;z-index:10;min-width:14rem;max-width:min(22rem,calc(100vw - 2rem));box-sizing:border-box;margin:.25rem 0 0;padding:.25rem;list-style:none;background:var(--lk-bg);border:1px solid var(--lk-border);border-radius:var(--lk-r);box-shadow:0 4px 16px #0003}
:where(.lk-ts [role=option]){display:flex;align-items:center;gap:.5rem;padding:.4rem .6rem;border-radius:calc(var(--lk-r) - 2px);cursor:pointer}
:where(.lk-ts [role=option].lk-active){background:var(--lk-subtle);outline:2px solid var(--lk-primary);outline-offset:-2px}
:where(.lk-ts [role=option][aria-selected=true]){font-weight:600}
:where(.lk-ts [role=option][aria-selected=true])::after{content:"✓";margin-inline-start:auto;flex:none}
:where(.lk-ts .lk-ts-create){border-top:1px solid var(--lk-border);color:var(--lk-link)}`;

  declare allowCreate: boolean;
  declare open: boolean;
  // The option index the keyboard is on; the "Create team" entry comes after the teams.
  declare active: number;
  declare busy: boolean;
  declare error: ShownError | null;
  private readonly user = this.watch((app) => app.$user);
  private readonly teams = this.watch((app) => app.$teams);
  private readonly project = this.watch((app) => app.$project);
  private typed = "";
  private typedAt = 0;

  constructor() {
    super();
    this.allowCreate = false;
    this.open = false;
    this.active = 0;
    this.busy = false;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener("click", this.closeOnOutsideClick);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener("click", this.closeOnOutsideClick);
  }

  private teamList(): Team[] {
    const teams = this.teams() as Loadable<Team[]> | undefined;
    return teams?.status === "ready" ? teams.value : [];
  }

  private selectedId(): string | null {
    const user = this.user() as Loadable<CurrentUser | null> | undefined;
    return user?.status === "ready" ? (user.value?.selectedTeamId ?? null) : null;
  }

  private canCreate(): boolean {
    const project = this.project() as Loadable<Project> | undefined;
    return this.allowCreate && project?.status === "ready" && project.value.config.clientTeamCreationEnabled;
  }

  /** How many options the list has: the teams, and the create entry when offered. */
  private optionCount(): number {
    return this.teamList().length + (this.canCreate() ? 1 : 0);
  }

  protected override render(): TemplateResult {
    const user = this.user() as Loadable<CurrentUser | null> | undefined;
    const teamsState = this.teams() as Loadable<Team[]> | undefined;
    if (user?.status === "error" || teamsState?.status === "error") return html`<p class="lk-alert" role="alert">${msg("Teams unavailable")}</p>`;
    if (user?.status !== "ready" || teamsState?.status !== "ready") return html`<span class="lk-note" role="status">${msg("Loading…")}</span>`;
    if (!user.value) return html``;
    const teams = teamsState.value;
    const selected = teams.find((t) => t.id === this.selectedId());
    const canCreate = this.canCreate();
    const listId = `${this.uid}-teams`;
    const labelId = `${this.uid}-label`;
    const optionId = (index: number) => `${this.uid}-option-${index}`;
    return html`<div class="lk-ts">
      <span class="lk-sr" id=${labelId}>${msg("Teams")}</span>
      <button part="button" type="button" aria-haspopup="listbox" aria-expanded=${this.open ? "true" : "false"}
        aria-controls=${listId} @click=${this.buttonClick} @keydown=${this.buttonKeys}>
        ${selected ? teamAvatar(selected) : nothing}<span class="lk-sr">${msg("Team:")} </span><span class="lk-name" title=${selected?.displayName ?? nothing}>${selected?.displayName ?? msg("No team selected")}</span>
      </button>
      <ul part="listbox" role="listbox" id=${listId} tabindex="-1" aria-labelledby=${labelId} ?hidden=${!this.open}
        aria-activedescendant=${this.open && this.active < this.optionCount() ? optionId(this.active) : nothing} @keydown=${this.listKeys}
        @focusout=${this.closeOnFocusOut}>
        ${teams.map(
          (team, index) => html`<li role="option" id=${optionId(index)} aria-selected=${team.id === selected?.id ? "true" : "false"}
            class=${index === this.active ? "lk-active" : ""} @click=${() => this.choose(index)}>${teamAvatar(team)}<span class="lk-name" title=${team.displayName}>${team.displayName}</span></li>`,
        )}
        ${canCreate
          ? html`<li role="option" id=${optionId(teams.length)} aria-selected="false" class=${`lk-ts-create ${teams.length === this.active ? "lk-active" : ""}`}
              @click=${() => this.choose(teams.length)}>${msg("Create team…")}</li>`
          : nothing}
      </ul>
      ${!teams.length && !canCreate && this.open ? html`<p class="lk-note" role="status">${msg("You are not in any team yet.")}</p>` : nothing}
      ${this.error && !this.querySelector("dialog[open]") ? formError(this.error) : nothing}
      ${canCreate ? this.createDialog() : nothing}
    </div>`;
  }

  private createDialog(): TemplateResult {
    const titleId = `${this.uid}-create-title`;
    return html`<dialog class="lk-dialog" part="dialog" aria-labelledby=${titleId} @close=${this.dialogClosed}>
      <form class="lk-stack" @submit=${this.create}>
        <h3 id=${titleId}>${msg("Create a team")}</h3>
        ${field({ uid: this.uid, name: "team-name", label: msg("Team name"), autocomplete: "organization", autofocus: true, maxlength: 256 })}
        ${formError(this.error)}
        <div class="lk-actions">
          <button type="button" @click=${() => this.querySelector("dialog")?.close()}>${msg("Cancel")}</button>
          ${submit(msg("Create team"), msg("Creating…"), this.busy)}
        </div>
      </form>
    </dialog>`;
  }

  private async setOpen(open: boolean, focusButton = false): Promise<void> {
    if (open) {
      const index = this.teamList().findIndex((t) => t.id === this.selectedId());
      this.active = Math.max(index, 0);
      this.error = null;
    }
    this.open = open;
    await this.updateComplete;
    if (open) this.querySelector<HTMLElement>("[role=listbox]")?.focus();
    else if (focusButton) this.button()?.focus();
  }

  private button(): HTMLButtonElement | null {
    return this.querySelector<HTMLButtonElement>(".lk-ts>button");
  }

  private buttonClick = (): void => {
    void this.setOpen(!this.open, true);
  };

  private buttonKeys = (event: KeyboardEvent): void => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      void this.setOpen(true);
    }
  };

  private listKeys = (event: KeyboardEvent): void => {
    const last = this.optionCount() - 1;
    switch (event.key) {
      case "ArrowDown":
        this.active = Math.min(this.active + 1, last);
        break;
      case "ArrowUp":
        this.active = Math.max(this.active - 1, 0);
        break;
      case "Home":
        this.active = 0;
        break;
      case "End":
        this.active = Math.max(last, 0);
        break;
      case "Enter":
      case " ":
        void this.choose(this.active);
        break;
      case "Escape":
        void this.setOpen(false, true);
        break;
      case "Tab":
        this.open = false;
        return;
      default:
        if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) this.typeAhead(event.key);
        else return;
    }
    event.preventDefault();
    void this.updateComplete.then(() => this.querySelector(".lk-active")?.scrollIntoView({ block: "nearest" }));
  };

  /** Jumps to the first team whose name starts with what was typed in quick succession. */
  private typeAhead(key: string): void {
    const now = Date.now();
    this.typed = now - this.typedAt > TYPE_AHEAD_RESET_MILLIS ? key : this.typed + key;
    this.typedAt = now;
    const prefix = this.typed.toLocaleLowerCase();
    const index = this.teamList().findIndex((team) => team.displayName.toLocaleLowerCase().startsWith(prefix));
    if (index >= 0) this.active = index;
  }

  private async choose(index: number): Promise<void> {
    const team = this.teamList()[index];
    if (!team) {
      if (index === this.teamList().length && this.canCreate()) await this.openCreate();
      return;
    }
    await this.setOpen(false, true);
    if (team.id === this.selectedId() || !this.app) return;
    try {
      await this.app.selectTeam(team.id);
      this.emit("auth-team-changed", { teamId: team.id });
    } catch (error) {
      this.error = { field: "form", message: describeError(error).message };
    }
  }

  private async openCreate(): Promise<void> {
    this.open = false;
    this.error = null;
    await this.updateComplete;
    const dialog = this.querySelector("dialog");
    dialog?.querySelector("form")?.reset();
    // showModal traps focus inside the dialog and focuses its autofocus field; Escape closes it.
    dialog?.showModal();
  }

  private dialogClosed = (): void => {
    this.error = null;
    // Back to where the person came from, for keyboard and screen-reader users.
    this.button()?.focus();
  };

  private create = async (event: Event): Promise<void> => {
    const { "team-name": name = "" } = formValues(event);
    if (this.busy || !this.app || !name.trim()) return;
    this.busy = true;
    this.error = null;
    try {
      // The client's createTeam selects the new team (its own PATCH /users/me: the server leaves the selection alone).
      const team = await this.app.createTeam({ displayName: name.trim() });
      this.querySelector("dialog")?.close();
      this.emit("auth-team-changed", { teamId: team.id });
    } catch (error) {
      this.error = { field: "form", message: describeError(error).message };
    } finally {
      this.busy = false;
    }
  };

  private closeOnOutsideClick = (event: MouseEvent): void => {
    if (this.open && !event.composedPath().includes(this)) this.open = false;
  };

  /** Leaving the list (clicking elsewhere, or focus moved by a screen reader) closes it. */
  private closeOnFocusOut = (event: FocusEvent): void => {
    if (this.open && !this.contains(event.relatedTarget as Node | null)) this.open = false;
  };
}
