import type { CurrentUser, Loadable, Project } from "@latchkey/core";
import { html, nothing, type TemplateResult } from "lit-html";
import { AuthElement } from "../base/auth-element.js";
import { AVATAR_CSS } from "../base/avatar.js";
import { msg, str } from "../base/i18n.js";

/**
 * The signed-in user's avatar and name with a menu (account settings, sign out); a sign-in link when
 * signed out. The menu follows the WAI-ARIA menu button pattern: Enter/Space/ArrowDown open it and focus the
 * first item, arrow keys move, Escape closes and returns focus to the button.
 *
 * @element auth-user-button
 * @fires auth-signed-out - After signing out from the menu.
 * @attr show-name - Show the user's name next to the avatar.
 * @attr {"light" | "dark"} theme - `light` or `dark`; default follows the system.
 * @csspart button - The avatar button.
 * @csspart avatar - The avatar.
 * @csspart menu - The menu.
 */
export class AuthUserButtonElement extends AuthElement {
  static override css = AVATAR_CSS + `
:where(.lk-ub){position:relative;display:inline-block;max-width:100%}
:where(.lk-ub>button){display:inline-flex;align-items:center;gap:.5rem;max-width:100%;padding:.25rem .5rem .25rem .25rem;border-radius:999px}
:where(.lk-menu){position:absolute;right:0;z-index:10;min-width:12rem;margin:.25rem 0 0;padding:.25rem;list-style:none;background:var(--lk-bg);border:1px solid var(--lk-border);border-radius:var(--lk-r);box-shadow:0 4px 16px #0003}
:where(.lk-menu [role=menuitem]){display:block;box-sizing:border-box;width:100%;border:0;text-align:start;font-weight:400}
:where(.lk-menu [role=menuitem]:hover,.lk-menu [role=menuitem]:focus){background:var(--lk-subtle)}
:where(.lk-ub .lk-name){max-width:16rem}
:where(.lk-menu-head){padding:.4rem 1rem;color:var(--lk-muted);font-size:.9em;overflow-wrap:anywhere}
`;
  static override properties = { showName: { type: Boolean, attribute: "show-name" }, open: { state: true } };

  declare showName: boolean;
  declare open: boolean;
  private readonly user = this.watch((app) => app.$user);
  // Signed out, the user store settles without asking the server; the project's settings are the first answer
  // that says the server is there (and the project and key right) before "Sign in" is offered.
  private readonly project = this.watch((app) => app.$project);

  constructor() {
    super();
    this.showName = false;
    this.open = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener("click", this.closeOnOutsideClick);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener("click", this.closeOnOutsideClick);
  }

  protected override render(): TemplateResult {
    const state = this.user() as Loadable<CurrentUser | null> | undefined;
    const user = state?.status === "ready" ? state.value : null;
    if (!user) {
      const project = this.project() as Loadable<Project> | undefined;
      if (state?.status === "error" || project?.status === "error") return html`<span class="lk-note" role="status">${msg("Account unavailable")}</span>`;
      if (state?.status !== "ready" || project?.status !== "ready") return html`<span class="lk-note" role="status" aria-busy="true">${msg("Loading…")}</span>`;
      return html`<a class="lk-button lk-primary" part="button" href=${this.app!.urls.signIn}>${msg("Sign in")}</a>`;
    }
    const name = user.displayName ?? user.primaryEmail ?? msg("Account");
    return html`<div class="lk-ub">
      <button part="button" type="button" id=${`${this.uid}-button`} aria-haspopup="menu" aria-expanded=${this.open ? "true" : "false"}
        aria-controls=${`${this.uid}-menu`} @click=${this.toggle} @keydown=${this.buttonKeys}>
        <span class="lk-avatar" part="avatar" aria-hidden="true">${user.profileImageUrl ? html`<img src=${user.profileImageUrl} alt="" />` : initials(name)}</span>
        ${this.showName ? html`<span class="lk-name" title=${name}>${name}</span>` : html`<span class="lk-sr">${msg(str`Account menu for ${name}`)}</span>`}
      </button>
      <ul class="lk-menu" part="menu" role="menu" id=${`${this.uid}-menu`} aria-labelledby=${`${this.uid}-button`} ?hidden=${!this.open} @keydown=${this.menuKeys}>
        <li role="none" class="lk-menu-head">${user.primaryEmail ?? name}</li>
        <li role="none"><a role="menuitem" class="lk-button" tabindex="-1" href=${this.app!.urls.accountSettings}>${msg("Account settings")}</a></li>
        <li role="none"><button role="menuitem" type="button" tabindex="-1" @click=${this.signOut}>${msg("Sign out")}</button></li>
      </ul>
    </div>`;
  }

  private items(): HTMLElement[] {
    return [...this.querySelectorAll<HTMLElement>("[role=menuitem]")];
  }

  private async setOpen(open: boolean, focus: "first" | "last" | "button" | null): Promise<void> {
    this.open = open;
    await this.updateComplete;
    const items = this.items();
    if (focus === "first") items[0]?.focus();
    else if (focus === "last") items.at(-1)?.focus();
    else if (focus === "button") this.querySelector<HTMLElement>(".lk-ub>button")?.focus();
  }

  private toggle = (event: MouseEvent): void => {
    // Keyboard "clicks" (Enter/Space) arrive here too, with detail 0: open with focus on the first item.
    void this.setOpen(!this.open, this.open ? null : event.detail === 0 ? "first" : null);
  };

  private buttonKeys = (event: KeyboardEvent): void => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      void this.setOpen(true, event.key === "ArrowDown" ? "first" : "last");
    }
  };

  private menuKeys = (event: KeyboardEvent): void => {
    const items = this.items();
    const index = items.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => items[(to + items.length) % items.length]?.focus();
    if (event.key === "ArrowDown") move(index + 1);
    else if (event.key === "ArrowUp") move(index - 1);
    else if (event.key === "Home") move(0);
    else if (event.key === "End") move(items.length - 1);
    else if (event.key === "Escape") void this.setOpen(false, "button");
    else if (event.key === "Tab") void this.setOpen(false, null);
    else return;
    if (event.key !== "Tab") event.preventDefault();
  };

  private closeOnOutsideClick = (event: MouseEvent): void => {
    if (this.open && !event.composedPath().includes(this)) this.open = false;
  };

  private signOut = async (): Promise<void> => {
    this.open = false;
    try {
      await this.app!.signOut();
    } finally {
      // Signed out locally even when the server could not be reached (core's signOut clears first).
      this.emit("auth-signed-out");
    }
  };
}

function initials(name: string): string {
  const parts = name.split(/[\s@.]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "?") + (parts[1]?.[0] ?? "")).toUpperCase();
}
