/**
 * The plain-text part, made from the rendered HTML outside the sandbox with the same html-to-text settings as React
 * Email's `render(…, { plainText: true })`: images and `data-skip-in-text` elements skipped, links as "text url".
 * It runs on the sandbox's output (a string), never on template code.
 */
/// <reference path="./html-to-text.d.ts" />
import { convert } from "html-to-text";

const REACT_EMAIL_SELECTORS = [
  { selector: "img", format: "skip" },
  { selector: "[data-skip-in-text=true]", format: "skip" },
  { selector: "a", options: { linkBrackets: false, hideLinkHrefIfSameAsText: true } },
];

export function htmlToPlainText(html: string): string {
  return convert(html, { wordwrap: false, selectors: REACT_EMAIL_SELECTORS });
}
