import { html, nothing, type TemplateResult } from "lit-html";

export interface FilePickerOptions {
  id: string;
  /** What the button says (an action: "Upload a picture"); it also names the file input. */
  label: string;
  accept: string;
  busy: boolean;
  /** The id of the error under the picker, if one shows. */
  describedBy?: string | null;
  onChange: (event: Event) => void;
}

/**
 * A file input shown as a button with our own, translated text: the browser's file input says "Choose file"
 * and "No file chosen" in the browser's language, whatever the page's. The input stays inside its label,
 * visually hidden but focusable, so clicking the button, or Space on the focused input, opens the picker, and
 * screen readers meet a file input named by the label. Busy, it is `aria-disabled` and opens no picker, but
 * keeps the focus (a disabled input would drop it to the page).
 */
export function filePicker(o: FilePickerOptions): TemplateResult {
  return html`<label class="lk-button lk-file-button" part="file-button" for=${o.id}>${o.label}
    <input class="lk-sr" id=${o.id} type="file" accept=${o.accept} aria-disabled=${o.busy} aria-busy=${o.busy}
      aria-describedby=${o.describedBy ?? nothing} @click=${(event: Event) => o.busy && event.preventDefault()} @change=${o.onChange} /></label>`;
}

/** The picker's looks (a secondary button), for the elements that show one. */
export const filePickerCss = `
:where(.lk .lk-file-button){display:inline-block;justify-self:start;font-weight:600}
:where(.lk .lk-file-button input){padding:0;border:0}
:where(.lk .lk-file-button:has(:focus-visible)){outline:2px solid var(--lk-primary);outline-offset:2px}
:where(.lk .lk-file-button:has([aria-disabled=true])){opacity:.7;cursor:progress}
`;
