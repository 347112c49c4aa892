// The code that runs INSIDE the sandbox (a V8 isolate), bundled once with React, react-dom's synchronous static
// renderer, the React Email components (with Tailwind), arktype and html-to-text by ../sandbox-library.mjs. The
// host calls `render(json)` with already compiled CommonJS modules (compiled outside the sandbox), then
// `plainText()`, and gets small JSON answers back: everything that leaves the isolate is bounded here, before it
// is copied out (../sandbox-limits.mjs).
import "./globals.js"; // first: its stand-ins must exist before the libraries load
import * as React from "react";
import * as jsxRuntime from "react/jsx-runtime";
import * as components from "@react-email/components";
import { renderToStaticMarkup } from "react-dom/server.browser";
import { type } from "arktype";
import { convert } from "html-to-text";
import * as emails from "./emails.js";
import { lockdown } from "./lockdown.js";
import { MAX_CATEGORY_CHARS, MAX_ERROR_CHARS, MAX_HTML_CHARS, MAX_SUBJECT_CHARS, MAX_TEXT_CHARS } from "../sandbox-limits.mjs";

// What templates may import. Anything else (fs, node:*, …) fails the render with a clear message.
const emailsModule = { Subject: emails.Subject, NotificationCategory: emails.NotificationCategory };
const MODULES = {
  react: React,
  "react/jsx-runtime": jsxRuntime,
  "react/jsx-dev-runtime": jsxRuntime,
  "@react-email/components": components,
  "@stackframe/emails": emailsModule,
  "@latchkey/emails": emailsModule,
  arktype: { type },
};

// Captured before any template runs: the code around a render uses only these, as plain calls, because a template
// may replace the built-ins' methods (they are put back before the next render, see lockdown.js).
const stringify = JSON.stringify;
const parse = JSON.parse;
const apply = Reflect.apply;
const sliceString = String.prototype.slice;
const charCodeAt = String.prototype.charCodeAt;
const replaceString = String.prototype.replace;
const toText = String;

// The Tailwind component suspends (throws a promise) the first time it sees a configuration; the patched
// library (see sandbox-library.mjs) hands those promises here so the render can wait and retry.
const suspended = [];
globalThis.__latchkeySuspend = (promise) => void suspended.push(promise);

const XHTML_DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

// html-to-text with React Email's own settings for `render(…, { plainText: true })`: images and
// `data-skip-in-text` elements skipped, links as "text url".
const PLAIN_TEXT_OPTIONS = {
  wordwrap: false,
  selectors: [
    { selector: "img", format: "skip" },
    { selector: "[data-skip-in-text=true]", format: "skip" },
    { selector: "a", options: { linkBrackets: false, hideLinkHrefIfSameAsText: true } },
  ],
};

function loadModule(code, kind) {
  const module = { exports: {} };
  const require = (name) => {
    if (Object.prototype.hasOwnProperty.call(MODULES, name)) return MODULES[name];
    throw new Error(`the ${kind} imports "${name}", which is not available (available: ${Object.keys(MODULES).join(", ")})`);
  };
  new Function("module", "exports", "require", code)(module, module.exports, require);
  return module.exports;
}

function validateVariables(schema, variables) {
  if (typeof schema !== "function") return variables;
  const result = schema(variables);
  if (result instanceof type.errors) throw new Error(`the variables do not match the template's variablesSchema: ${result.summary}`);
  // An arktype schema returns the (possibly morphed) data; a plain function such as `v => v` may return anything.
  return result !== null && typeof result === "object" ? result : variables;
}

async function renderToHtml(element) {
  for (let attempt = 0; ; attempt++) {
    suspended.length = 0;
    try {
      return renderToStaticMarkup(element);
    } catch (error) {
      if (suspended.length === 0 || attempt >= 5) throw error;
      await Promise.all(suspended.splice(0));
    }
  }
}

async function render(request) {
  const template = loadModule(request.templateCode, "template");
  if (typeof template.EmailTemplate !== "function") throw new Error("the template does not export a function EmailTemplate");
  const theme = request.themeCode == null ? null : loadModule(request.themeCode, "theme");
  if (theme && typeof theme.EmailTheme !== "function") throw new Error("the theme does not export a function EmailTheme");

  let variables = request.variables ?? {};
  if (request.previewMode) variables = { ...(template.EmailTemplate.PreviewVariables ?? {}), ...variables };
  variables = validateVariables(template.variablesSchema, variables);

  const themeProps = request.previewMode && theme ? { ...(theme.EmailTheme.PreviewProps ?? {}) } : {};
  if (request.unsubscribeLink != null) themeProps.unsubscribeLink = request.unsubscribeLink;

  const content = React.createElement(template.EmailTemplate, { user: request.user, project: request.project, variables });
  const element = theme ? React.createElement(theme.EmailTheme, themeProps, content) : content;
  const collected = emails.startCollecting();
  const html = await renderToHtml(element);
  return { html, themed: theme !== null, subject: collected.subject, notificationCategory: collected.notificationCategory };
}

/** A bounded description of whatever a render threw (a template may throw anything, or a 30 MB message). */
function describe(error) {
  try {
    const message = error !== null && typeof error === "object" && "message" in error ? error.message : error;
    const name = error !== null && typeof error === "object" && typeof error.name === "string" && error.name !== "Error" ? error.name : "";
    const text = typeof message === "string" ? message : toText(message);
    return cut(typeof text === "string" ? (name === "" ? text : `${cut(name, 100)}: ${text}`) : "the template threw something that is not an error", MAX_ERROR_CHARS);
  } catch {
    return "the template threw something that could not be described";
  }
}

function cut(text, max) {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = apply(charCodeAt, text, [end - 1]);
  if (last >= 0xd800 && last <= 0xdbff) end--; // never half of a surrogate pair
  return apply(sliceString, text, [0, end]) + "…";
}

function tooLong(what, max, clean) {
  const figure = apply(replaceString, toText(max), [/\B(?=(\d{3})+$)/g, ","]);
  return stringify({ ok: false, error: `the ${what} is longer than the ${figure} characters allowed`, dirty: !clean });
}

/** A template's subject or category: null, or a string (the Subject component made it one). */
const optionalText = (value) => (typeof value === "string" ? value : null);

let restore = () => true;
/** The finished render waiting for its plain text (the host asks for it in a call of its own, with its own limit). */
let rendered = null;

async function renderEntry(json) {
  rendered = null;
  // Whatever the last render changed is put back; if it cannot be, the host replaces this sandbox and asks again.
  if (!restore()) return stringify({ ok: false, dirty: true });
  let html, themed, subject, notificationCategory;
  try {
    const result = await render(parse(json));
    ({ html, themed, subject, notificationCategory } = result);
  } catch (error) {
    const clean = restore();
    return stringify({ ok: false, error: describe(error), dirty: !clean });
  }
  // From here on no template code runs: the built-ins are put back, then the output is checked (plain strings only).
  const clean = restore();
  if (typeof html !== "string") return stringify({ ok: false, error: "the render did not produce HTML", dirty: !clean });
  subject = optionalText(subject);
  notificationCategory = optionalText(notificationCategory);
  if (subject !== null && subject.length > MAX_SUBJECT_CHARS) return tooLong("subject", MAX_SUBJECT_CHARS, clean);
  if (notificationCategory !== null && notificationCategory.length > MAX_CATEGORY_CHARS) return tooLong("notification category", MAX_CATEGORY_CHARS, clean);
  // Checked before the document is put together, so no string much larger than the limit is made from it.
  if (html.length > MAX_HTML_CHARS) return tooLong("rendered HTML", MAX_HTML_CHARS, clean);
  const content = apply(replaceString, html, [/^<!DOCTYPE[^>]*>/i, ""]);
  const document = XHTML_DOCTYPE + (themed === true ? content : bareDocument(content));
  if (document.length > MAX_HTML_CHARS) return tooLong("rendered HTML", MAX_HTML_CHARS, clean);
  rendered = { html: document, subject, notificationCategory, dirty: !clean };
  return stringify({ ok: true, dirty: !clean });
}

/**
 * Without a theme the content still goes out as a document, in the skeleton the protocol's reference renders
 * theme-less mail in: `<html dir="ltr" lang="en"><head></head><body>…</body></html>`, after the doctype.
 */
function bareDocument(content) {
  return `<html dir="ltr" lang="en"><head></head><body>${content}</body></html>`;
}

/** The plain text of the finished render, and the mail as the host gets it. Synchronous: no template code runs. */
function plainTextEntry() {
  const mail = rendered;
  rendered = null;
  if (mail === null) return stringify({ ok: false, error: "no render is waiting for its plain text" });
  const clean = restore() && !mail.dirty;
  let text;
  try {
    text = convert(mail.html, PLAIN_TEXT_OPTIONS);
  } catch (error) {
    return stringify({ ok: false, error: `could not make the plain text: ${describe(error)}`, dirty: !clean });
  }
  if (typeof text !== "string") return stringify({ ok: false, error: "could not make the plain text", dirty: !clean });
  if (text.length > MAX_TEXT_CHARS) return tooLong("plain text", MAX_TEXT_CHARS, clean);
  return stringify({ ok: true, dirty: !clean, html: mail.html, text, subject: mail.subject, notificationCategory: mail.notificationCategory });
}

// React Email's CodeBlock's Prism languages, defined on first use (../sandbox-library.mjs), taken off the global.
const definePrismLanguages = globalThis.__latchkeyDefinePrismLanguages;
delete globalThis.__latchkeyDefinePrismLanguages;

// The host takes these references, then calls `lockdown`, which removes this global (a template must not reach
// the entry points) and seals everything else.
globalThis.__latchkeySandbox = {
  render: renderEntry,
  plainText: plainTextEntry,
  // Between renders, from the built-ins as they loaded: false (the sandbox is replaced) if they cannot be put back.
  prepareCodeBlock() {
    if (!restore()) return false;
    definePrismLanguages();
    return restore();
  },
  lockdown() {
    delete globalThis.__latchkeySandbox;
    restore = lockdown(Object.values(MODULES), [globalThis.$ark], [type]);
  },
};
