import { html, render } from "lit-html";
import { msg } from "../../base/i18n.js";

let dialogs = 0;

export interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel: string;
}

/**
 * Asks a yes/no question in a native modal `<dialog>` (showModal traps focus; Escape cancels) and resolves
 * with the answer. The dialog lives in the asking element's light DOM only while open, and focus goes back
 * to whatever opened it, so keyboard users continue where they were.
 */
export function confirmAction(host: HTMLElement, options: ConfirmOptions): Promise<boolean> {
  const opener = document.activeElement as HTMLElement | null;
  const dialog = document.createElement("dialog");
  dialog.className = "lk-dialog";
  dialog.setAttribute("part", "dialog");
  const titleId = `lk-confirm-${++dialogs}`;
  dialog.setAttribute("aria-labelledby", titleId);
  render(
    html`<form method="dialog" class="lk-stack">
      <h3 id=${titleId}>${options.title}</h3>
      <p>${options.message}</p>
      <div class="lk-actions">
        <button type="button" autofocus @click=${() => dialog.close("cancel")}>${msg("Cancel")}</button>
        <button type="submit" value="confirm" class="lk-danger">${options.confirmLabel}</button>
      </div>
    </form>`,
    dialog,
  );
  host.append(dialog);
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        dialog.remove();
        opener?.focus();
        resolve(dialog.returnValue === "confirm");
      },
      { once: true },
    );
  });
}
