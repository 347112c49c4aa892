import { html, nothing, type TemplateResult } from "lit-html";
import type { ShownError } from "./errors.js";
import { msg } from "./i18n.js";

export interface FieldOptions {
  /** Element instance id prefix, so ids stay unique with several forms on a page. */
  uid: string;
  name: string;
  label: string;
  type?: string;
  autocomplete: string;
  error?: ShownError | null;
  /** The error field this input shows; defaults to its name. */
  errorField?: string;
  autofocus?: boolean;
  value?: string;
  inputmode?: string;
  minlength?: number;
  maxlength?: number;
  /** The id of what else describes the input (a new password's rules), read with it by screen readers. */
  describedBy?: string;
}

/** A labelled input; its error (if any) sits right under it, in an alert tied to it by aria-describedby. */
export function field(o: FieldOptions): TemplateResult {
  const id = `${o.uid}-${o.name}`;
  const error = o.error && o.error.field === (o.errorField ?? o.name) ? o.error.message : null;
  const describedBy = [error && `${id}-error`, o.describedBy].filter(Boolean).join(" ");
  return html`<label part="label" for=${id}>${o.label}
    <input part="input" id=${id} name=${o.name} type=${o.type ?? "text"} autocomplete=${o.autocomplete} required
      ?autofocus=${o.autofocus} .value=${o.value ?? ""} inputmode=${o.inputmode ?? nothing}
      minlength=${o.minlength ?? nothing} maxlength=${o.maxlength ?? nothing}
      aria-invalid=${!!error} aria-describedby=${describedBy || nothing}></label>
    ${error ? html`<p class="lk-error" id=${`${id}-error`} role="alert">${error}</p>` : nothing}`;
}

/** The error that concerns no single field, as an alert (focusable, so `focusError` can move there). */
export function formError(error: ShownError | null | undefined): TemplateResult | typeof nothing {
  return error && error.field === "form" ? html`<p class="lk-alert" part="error" role="alert" tabindex="-1">${error.message}</p>` : nothing;
}

/**
 * A submit button that shows its loading state (aria-busy, a busy label). Busy, it is `aria-disabled`, not
 * `disabled`: a disabled button drops the focus to the page, and a keyboard or screen-reader user would lose
 * their place. It still submits the form, so every submit handler returns at once while busy.
 */
export function submit(label: string, busyLabel: string, busy: boolean): TemplateResult {
  return html`<button part="submit" type="submit" aria-disabled=${busy} aria-busy=${busy}>${busy ? busyLabel : label}</button>`;
}

/**
 * One "Show password" toggle for the password inputs of its form (`controls`: their ids), placed after them
 * so that Tab still goes from one password field to the next. It switches their `type` only: name and
 * `autocomplete` stay, so password managers keep filling and saving them. The button's name stays the same
 * and `aria-pressed` says whether the passwords show (WAI-ARIA toggle button).
 */
export function showPassword(controls: string): TemplateResult {
  return html`<button type="button" class="lk-reveal" part="show-password" aria-pressed="false" aria-controls=${controls} @click=${togglePasswords}>${msg("Show password")}</button>`;
}

function togglePasswords(event: Event): void {
  const button = event.currentTarget as HTMLButtonElement;
  const show = button.ariaPressed !== "true";
  button.ariaPressed = `${show}`;
  for (const input of button.form!.querySelectorAll<HTMLInputElement>("[autocomplete$=password]")) input.type = show ? "text" : "password";
}

/**
 * After an error, focus goes to the first invalid field, else to the form's error alert: the person lands
 * on what to fix, and a screen reader reads it.
 */
export function focusError(host: HTMLElement & { updateComplete: Promise<unknown> }): void {
  void host.updateComplete.then(() => host.querySelector<HTMLElement>("[aria-invalid=true],[part=error]")?.focus());
}

/**
 * `autofocus` on an element (HTML's own attribute, so no property is declared): its first field takes the
 * focus when it first shows — which may be after the project's settings have loaded.
 */
export function autofocusFirstField(host: HTMLElement): void {
  new MutationObserver((_, observer) => {
    const input = host.querySelector<HTMLElement>("input:not([hidden])");
    if (!input) return;
    input.focus();
    observer.disconnect();
  }).observe(host, { childList: true, subtree: true });
}

/** The form's values by input name. */
export function formValues(event: Event): Record<string, string> {
  event.preventDefault();
  const data = new FormData(event.target as HTMLFormElement);
  return Object.fromEntries([...data].map(([key, value]) => [key, String(value)]));
}
