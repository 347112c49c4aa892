import { html, nothing, type TemplateResult } from "lit-html";
import type { ShownError } from "./errors.js";

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
}

/** A labelled input; its error (if any) sits right under it, in an alert tied to it by aria-describedby. */
export function field(o: FieldOptions): TemplateResult {
  const id = `${o.uid}-${o.name}`;
  const error = o.error && o.error.field === (o.errorField ?? o.name) ? o.error.message : null;
  return html`<label part="label" for=${id}>${o.label}
    <input part="input" id=${id} name=${o.name} type=${o.type ?? "text"} autocomplete=${o.autocomplete} required
      ?autofocus=${o.autofocus} .value=${o.value ?? ""} inputmode=${o.inputmode ?? nothing}
      minlength=${o.minlength ?? nothing} maxlength=${o.maxlength ?? nothing}
      aria-invalid=${error ? "true" : "false"} aria-describedby=${error ? `${id}-error` : nothing}></label>
    ${error ? html`<p class="lk-error" id=${`${id}-error`} role="alert">${error}</p>` : nothing}`;
}

/** The error that concerns no single field, as an alert. */
export function formError(error: ShownError | null | undefined): TemplateResult | typeof nothing {
  return error && error.field === "form" ? html`<p class="lk-alert" part="error" role="alert">${error.message}</p>` : nothing;
}

/** A submit button that shows its loading state (disabled, aria-busy, a busy label). */
export function submit(label: string, busyLabel: string, busy: boolean): TemplateResult {
  return html`<button part="submit" type="submit" ?disabled=${busy} aria-busy=${busy ? "true" : "false"}>${busy ? busyLabel : label}</button>`;
}

/** The form's values by input name. */
export function formValues(event: Event): Record<string, string> {
  event.preventDefault();
  const data = new FormData(event.target as HTMLFormElement);
  return Object.fromEntries([...data].map(([key, value]) => [key, String(value)]));
}
