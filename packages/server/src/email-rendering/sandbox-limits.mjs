// What may leave the sandbox (issue 30 §1), in UTF-16 code units (a JavaScript string's length). A render whose
// output passes one of these fails with an EMAIL_RENDERING_ERROR saying which, and an error message longer than
// MAX_ERROR_CHARS is cut with "…". Each is checked where the text is made, inside the isolate, so nothing larger
// is ever copied out of it, sent to the server or put in an answer. Shared by the isolate's runtime
// (sandbox-runtime/runtime.js), the sandbox process and the server.
export const MAX_HTML_CHARS = 1_000_000;
export const MAX_TEXT_CHARS = 1_000_000;
export const MAX_SUBJECT_CHARS = 1_000;
export const MAX_CATEGORY_CHARS = 200;
export const MAX_ERROR_CHARS = 2_000;

/** The first `max` characters of `text`, the last of them "…" when it was longer. */
export function cutText(text, max = MAX_ERROR_CHARS) {
  if (text.length <= max) return text;
  let end = max - 1;
  // Never half of a surrogate pair (an emoji cut in two).
  if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? "")) end--;
  return `${text.slice(0, end)}…`;
}
