// Stands in for @react-email/render inside the sandbox: @react-email/components re-exports it, but the real one
// pulls in Prettier and stream APIs the sandbox does not have. Templates never need it — the host renders them.
export function render() {
  throw new Error("render() is not available inside an email template; the server renders it");
}
export const pretty = (html) => html;
export const toPlainText = (html) => html;
export const plainTextSelectors = [];
