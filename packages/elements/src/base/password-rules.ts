import { html, type TemplateResult } from "lit-html";
import type { ShownError } from "./errors.js";
import { msg, str } from "./i18n.js";

/** SPEC.md §5: passwords are 8 to 70 characters (counted in UTF-16 units, as the server counts them). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 70;

/**
 * Checks a new password and its repetition before anything is sent, with the messages a person can act on;
 * the server checks again and its errors are shown the same way.
 */
export function checkNewPassword(password: string, repeat: string): ShownError | null {
  if (password.length < PASSWORD_MIN_LENGTH) return { field: "password", message: msg(str`The password must be at least ${PASSWORD_MIN_LENGTH} characters long.`) };
  if (password.length > PASSWORD_MAX_LENGTH) return { field: "password", message: msg(str`The password must be at most ${PASSWORD_MAX_LENGTH} characters long.`) };
  if (password !== repeat) return { field: "password-repeat", message: msg("Passwords do not match.") };
  return null;
}

/** The new password and its repetition as typed so far, read from the form on each `input` event. */
export type TypedPasswords = [password: string, repeat: string];

export function typedPasswords(event: Event): TypedPasswords {
  const form = event.currentTarget as HTMLFormElement;
  const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? "";
  return [value("password"), value("password-repeat")];
}

/** The id of the rules list under a form's new-password field, for its `aria-describedby`. */
export const rulesId = (uid: string): string => `${uid}-password-rules`;

/**
 * What a new password must be, listed under its field from the start (not only after a failed attempt),
 * each rule marked met as the person types. The new-password input points at the list with
 * aria-describedby, so a screen reader reads the rules with the field; the marks say met / not met in words.
 */
export function passwordRules(uid: string, [password, repeat]: TypedPasswords): TemplateResult {
  const rules: Array<[string, boolean]> = [
    [msg(str`${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`), password.length >= PASSWORD_MIN_LENGTH && password.length <= PASSWORD_MAX_LENGTH],
    [msg("Both passwords match"), password !== "" && password === repeat],
  ];
  return html`<ul class="lk-rules" part="password-rules" id=${rulesId(uid)}>
    ${rules.map(([text, met]) => html`<li data-met=${met}><span class="lk-sr">${met ? msg("Met:") : msg("Not met:")} </span>${text}</li>`)}
  </ul>`;
}

/**
 * The rules list's looks, for the elements that show it (kept out of the sign-in bundle's stylesheet). The
 * marks have empty alternative text (`content: "✓" / ""`): the words in the list say it.
 */
export const passwordRulesCss = `
:where(.lk-rules){list-style:none;margin:0;padding:0;font-size:.93em;color:var(--lk-muted)}
:where(.lk-rules li)::before{content:"○"/"";display:inline-block;width:1.4em}
:where(.lk-rules li[data-met=true]){color:var(--lk-fg)}
:where(.lk-rules li[data-met=true])::before{content:"✓"/""}
`;
