import type { CurrentUser, Loadable } from "@latchkey/core";
import { html, type TemplateResult } from "lit-html";
import { getLocale, msg } from "../../base/i18n.js";

/** Rules the account sections share (lists, badges, action rows, dialogs), added once per document. */
export const accountCss = `
:where(.lk-section){max-width:40rem;background:var(--lk-bg)}
:where(.lk-section h3){font-size:1.1em;margin:0 0 calc(var(--lk-s)*.5)}
:where(.lk-list){list-style:none;margin:0 0 var(--lk-s);padding:0;display:grid;grid-template-columns:minmax(0,1fr);gap:.5rem}
:where(.lk-list>li){display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;padding:.5rem .75rem;border:1px solid var(--lk-border);border-radius:var(--lk-r)}
:where(.lk-grow){flex:1;min-width:10rem;overflow-wrap:anywhere}
:where(.lk-list>li>.lk-reason){flex-basis:100%;margin:0}
:where(.lk-badge){display:inline-block;font-size:.8em;padding:0 .5rem;border-radius:999px;border:1px solid var(--lk-border);color:var(--lk-fg);background:var(--lk-subtle)}
:where(.lk-actions){display:flex;flex-wrap:wrap;gap:.5rem}
:where(.lk-actions button,.lk-list button){padding:.35rem .75rem;font-size:.93em}
:where(.lk .lk-danger){background:var(--lk-bg);border-color:var(--lk-error);color:var(--lk-error)}
:where(.lk-dialog){color:var(--lk-fg);background:var(--lk-bg);border:1px solid var(--lk-border);border-radius:var(--lk-r);padding:calc(var(--lk-s)*1.5);max-width:28rem}
:where(.lk-dialog)::backdrop{background:#0008}
:where(.lk select){font:inherit;color:var(--lk-fg);background:var(--lk-bg);padding:.5rem .7rem;border:1px solid var(--lk-border);border-radius:var(--lk-r)}
:where(.lk-section p[role=status]:empty){margin:0}
:where(.lk-fieldset){border:0;padding:0;margin:0}
:where(.lk-check){display:flex!important;align-items:center;gap:.5rem;font-weight:400}
`;

/**
 * What a section shows before it can show the account: a status line while the user loads, a readable line
 * when signed out (the account-settings page itself offers the sign-in link), else the section itself.
 */
export function signedInGate(state: Loadable<CurrentUser | null> | undefined, ready: (user: CurrentUser) => TemplateResult): TemplateResult {
  if (state?.status === "ready" && state.value) return ready(state.value);
  if (state?.status === "ready") return html`<p class="lk-note">${msg("Sign in to manage your account.")}</p>`;
  if (state?.status === "error") return html`<p class="lk-alert" role="alert">${msg("Account unavailable")}</p>`;
  return html`<p class="lk-note" role="status" aria-busy="true">${msg("Loading…")}</p>`;
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 hours ago", "in 30 days", "now" in the page's language: people read recency faster than dates. */
export function relativeTime(date: Date, now = Date.now()): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(getLocale(), { numeric: "auto" });
  for (const [unit, size] of UNITS) if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  return format.format(0, "second");
}

/** A full date and time in the page's language, for tooltips and lists where the exact moment matters. */
export function absoluteTime(date: Date): string {
  return new Intl.DateTimeFormat(getLocale(), { dateStyle: "medium", timeStyle: "short" }).format(date);
}

/** A date without the time (key expiry). */
export function absoluteDate(date: Date): string {
  return new Intl.DateTimeFormat(getLocale(), { dateStyle: "medium" }).format(date);
}

/**
 * The signed-in user's id from the `$user` store: undefined while it loads, null when signed out. Sections
 * that list the user's data reload when it changes (a sign-in after the page opened, another account).
 */
export function userIdOf(state: unknown): string | null | undefined {
  const loadable = state as Loadable<CurrentUser | null> | undefined;
  if (loadable?.status !== "ready") return undefined;
  return loadable.value?.id ?? null;
}

/**
 * After an action whose button went away (a removed row, a revoked key), focus would fall back to the page:
 * keyboard users keep their place when it moves to the first of `selectors` that exists in the section.
 */
export async function keepFocusIn(host: HTMLElement & { updateComplete: Promise<boolean> }, ...selectors: string[]): Promise<void> {
  await host.updateComplete;
  if (host.contains(document.activeElement)) return;
  for (const selector of selectors) {
    const target = host.querySelector<HTMLElement>(selector);
    if (target) return target.focus();
  }
}
