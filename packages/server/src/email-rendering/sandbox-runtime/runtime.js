// The code that runs INSIDE the sandbox (a V8 isolate), bundled once with React, react-dom's synchronous static
// renderer, the React Email components (with Tailwind) and arktype by ../sandbox-library.mjs. The host calls
// `__latchkeyRender(json)` with already compiled CommonJS modules (compiled outside the sandbox) and gets JSON back.
import "./globals.js"; // first: it records the built-in globals before the libraries load
import * as React from "react";
import * as jsxRuntime from "react/jsx-runtime";
import * as components from "@react-email/components";
import { renderToStaticMarkup } from "react-dom/server.browser";
import { type } from "arktype";
import * as emails from "./emails.js";
import { lockdown } from "./lockdown.js";

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

// The Tailwind component suspends (throws a promise) the first time it sees a configuration; the patched
// library (see sandbox-library.mjs) records those promises here so the render can wait and retry.
const suspended = [];
globalThis.__latchkeySuspended = suspended;

const XHTML_DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

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
  return { html: XHTML_DOCTYPE + html.replace(/^<!DOCTYPE[^>]*>/i, ""), ...collected };
}

globalThis.__latchkeyRender = async (json) => JSON.stringify(await render(JSON.parse(json)));
globalThis.__latchkeyLockdown = lockdown;
