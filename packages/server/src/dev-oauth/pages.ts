import { createHash } from "node:crypto";
import { escapeHtml } from "../email/templates.js";

/**
 * The development provider's pages: the sign-in form and the error page. Self-contained (no script, no
 * external resource) under a strict Content-Security-Policy that allows only their own inline style.
 */

const STYLE = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1f2328;line-height:1.5}
h1{font-size:1.4rem}label{display:block;font-weight:600;margin-bottom:.25rem}
input{box-sizing:border-box;width:100%;font:inherit;padding:.5rem;border:1px solid #8c959f;border-radius:6px}
input[aria-invalid=true]{border-color:#cf222e}.error{color:#cf222e;margin:.25rem 0 0}
.actions{display:flex;gap:.5rem;margin-top:1rem}button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #8c959f;background:#f6f8fa;cursor:pointer}
button[value=continue]{background:#1f6feb;border-color:#1f6feb;color:#fff}:focus-visible{outline:2px solid #0969da;outline-offset:2px}
.note{margin-top:2rem;font-size:.9rem;color:#59636e}`;

/**
 * No script at all; forms may post anywhere, because the provider's answer to the form is a redirect chain
 * that ends at the client (another origin), and Chromium checks `form-action` against those redirects too.
 */
export const PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'; base-uri 'none'; frame-ancestors 'none'`;

export const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": PAGE_CSP,
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
} as const;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Latchkey</title><style>${STYLE}</style></head>
<body><main>
${body}
<p class="note">This is Latchkey's development OpenID provider, standing in for the real one so that sign-in works without credentials. It is served in dev mode only, never in production.</p>
</main></body></html>`;
}

export interface SignInPageOptions {
  /** Who the user signs in to: the provider's name ("GitHub"). */
  providerName: string;
  /** Where the form posts (the interaction's URL). */
  action: string;
  email: string;
  /** Shown under the field, which is then marked invalid. */
  error?: string;
}

export function signInPage({ providerName, action, email, error }: SignInPageOptions): string {
  const title = `Sign in to ${providerName} (development)`;
  const invalid = error ? ` aria-invalid="true" aria-describedby="email-error"` : "";
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p>Which email address do you want to continue as? No password is asked: any address works here.</p>
<form method="post" action="${escapeHtml(action)}">
<label for="email">Email address</label>
<input id="email" name="email" type="email" required autofocus autocomplete="email" value="${escapeHtml(email)}"${invalid}>
${error ? `<p id="email-error" class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<div class="actions"><button type="submit" name="action" value="continue">Continue</button><button type="submit" name="action" value="cancel" formnovalidate>Cancel</button></div>
</form>`,
  );
}

export function errorPage(error: string, description: string | undefined): string {
  return page(
    "Sign-in could not continue",
    `<h1>Sign-in could not continue</h1>
<p role="alert"><strong>${escapeHtml(error)}</strong>${description ? `: ${escapeHtml(description)}` : ""}</p>
<p>Go back to the application and start signing in again.</p>`,
  );
}
