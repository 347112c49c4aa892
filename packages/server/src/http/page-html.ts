/** What the server's own HTML pages share: escaping, JSON in a script, the hosted pages' base look. */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** JSON inside a <script>: nothing in it can close the element or start a comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** The hosted pages' look (handler pages, purchase page): the project's name on top, one narrow column, system colours. */
export const HOSTED_PAGE_CSS = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0; min-height: 100vh; display: flex; flex-direction: column; align-items: center; background: Canvas; color: CanvasText; }
header { width: 100%; max-width: 28rem; padding: 2rem 1rem 0; box-sizing: border-box; }
.project { margin: 0; font-weight: 600; font-size: 1.125rem; text-align: center; }
main { width: 100%; max-width: 28rem; padding: 1rem; box-sizing: border-box; }
`;
