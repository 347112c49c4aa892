/**
 * The default email templates, as data: a subject, a text part and an HTML part with `{{name}}`
 * placeholders. Themes and admin-editable templates (a later issue) replace these records; nothing else
 * changes. Every template gets `projectDisplayName` and, when known, `userDisplayName`; the rest of its
 * variables are listed in `variables` and must be supplied by the caller.
 */

export type TemplateId = "email_verification" | "password_reset" | "magic_link" | "team_invitation" | "sign_in_invitation";

export interface EmailTemplate {
  id: TemplateId;
  /** The id the protocol gives this default template (what `/internal/email-templates` will list). */
  protocolTemplateId: string;
  displayName: string;
  /** Variables the caller must supply, besides the always-present `projectDisplayName`. */
  variables: readonly string[];
  /** The variable holding the link the mail is about (shown in the outbox log line and page). */
  linkVariable: string;
  /** The variable holding a code typed by hand, when the mail has one. */
  codeVariable?: string;
  subject: string;
  text: string;
  html: string;
}

const IGNORE = "If you were not expecting this email, you can safely ignore it.";

function htmlBody(heading: string, paragraph: string, button: string, link: string, extra = ""): string {
  return [
    `<!doctype html><html><body style="margin:0;padding:32px 0;background:#ffffff;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#242424">`,
    `<div style="max-width:480px;margin:0 auto;text-align:center">`,
    `<h3 style="font-size:20px;margin:0;padding:16px 24px">${heading}</h3>`,
    `<p style="font-size:14px;color:#474849;margin:0;padding:8px 24px 16px">${paragraph}</p>`,
    extra,
    `<p style="padding:12px 24px;margin:0"><a href="{{${link}}}" style="display:inline-block;padding:12px 20px;background:#f0f0f0;color:#000000;font-weight:bold;font-size:14px;border-radius:4px;text-decoration:none">${button}</a></p>`,
    `<p style="font-size:12px;color:#474849;margin:0;padding:4px 24px">Or open this link: <a href="{{${link}}}">{{${link}}}</a></p>`,
    `<hr style="border:none;border-top:1px solid #eaeaea;margin:16px 24px">`,
    `<p style="font-size:12px;color:#474849;margin:0;padding:4px 24px 24px">${IGNORE}</p>`,
    `</div></body></html>`,
  ].join("\n");
}

export const DEFAULT_EMAIL_TEMPLATES: Readonly<Record<TemplateId, EmailTemplate>> = {
  email_verification: {
    id: "email_verification",
    protocolTemplateId: "e7d009ce-8d47-4528-b245-5bf119f2ffa3",
    displayName: "Email Verification",
    variables: ["emailVerificationLink"],
    linkVariable: "emailVerificationLink",
    subject: "Verify your email at {{projectDisplayName}}",
    text: "Hi{{userGreeting}}!\n\nPlease open the following link to verify your email at {{projectDisplayName}}:\n\n{{emailVerificationLink}}\n\n" + IGNORE + "\n",
    html: htmlBody("Verify your email at {{projectDisplayName}}", "Hi{{userGreeting}}! Please click on the following button to verify your email.", "Verify my email", "emailVerificationLink"),
  },
  password_reset: {
    id: "password_reset",
    protocolTemplateId: "a70fb3a4-56c1-4e42-af25-49d25603abd0",
    displayName: "Password Reset",
    variables: ["passwordResetLink"],
    linkVariable: "passwordResetLink",
    subject: "Reset your password at {{projectDisplayName}}",
    text: "Hi{{userGreeting}}!\n\nPlease open the following link to reset your password at {{projectDisplayName}}:\n\n{{passwordResetLink}}\n\n" + IGNORE + "\n",
    html: htmlBody("Reset your password at {{projectDisplayName}}", "Hi{{userGreeting}}! Please click on the following button to start the password reset process.", "Reset my password", "passwordResetLink"),
  },
  magic_link: {
    id: "magic_link",
    protocolTemplateId: "822687fe-8d0a-4467-a0d1-416b6e639478",
    displayName: "Magic Link/OTP",
    variables: ["magicLink", "otp"],
    linkVariable: "magicLink",
    codeVariable: "otp",
    subject: "Sign in to {{projectDisplayName}}: Your code is {{otp}}",
    text: "Hi{{userGreeting}}!\n\nYour one-time code for signing in to {{projectDisplayName}} is:\n\n{{otp}}\n\nOr open this link to sign in:\n\n{{magicLink}}\n\n" + IGNORE + "\n",
    html: htmlBody(
      "Sign in to {{projectDisplayName}}",
      "Hi{{userGreeting}}! This is your one-time code for signing in:",
      "Sign in",
      "magicLink",
      `<p style="font-size:24px;font-family:ui-monospace,Menlo,monospace;font-weight:bold;letter-spacing:4px;margin:0;padding:16px 24px">{{otp}}</p>`,
    ),
  },
  team_invitation: {
    id: "team_invitation",
    protocolTemplateId: "e84de395-2076-4831-9c19-8e9a96a868e4",
    displayName: "Team Invitation",
    variables: ["teamDisplayName", "teamInvitationLink"],
    linkVariable: "teamInvitationLink",
    subject: "You have been invited to join {{teamDisplayName}}",
    text: "Hi{{userGreeting}}!\n\nYou are invited to join the team {{teamDisplayName}} at {{projectDisplayName}}. Open this link to join:\n\n{{teamInvitationLink}}\n\n" + IGNORE + "\n",
    html: htmlBody("You are invited to {{teamDisplayName}}", "Hi{{userGreeting}}! Please click the button below to join the team {{teamDisplayName}}.", "Join team", "teamInvitationLink"),
  },
  sign_in_invitation: {
    id: "sign_in_invitation",
    protocolTemplateId: "066dd73c-36da-4fd0-b6d6-ebf87683f8bc",
    displayName: "Sign In Invitation",
    variables: ["signInInvitationLink"],
    linkVariable: "signInInvitationLink",
    subject: "You have been invited to sign in to {{projectDisplayName}}",
    text: "Hi{{userGreeting}}!\n\nYou are invited to sign in to {{projectDisplayName}}. Open this link to sign in to your account:\n\n{{signInInvitationLink}}\n\n" + IGNORE + "\n",
    html: htmlBody("You are invited to sign in to {{projectDisplayName}}", "Hi{{userGreeting}}! Please click on the following button to sign in to your account.", "Sign in", "signInInvitationLink"),
  },
};

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  /** The template's link and code, for the outbox log line and page. */
  link: string;
  code: string | undefined;
}

/**
 * Renders a template. Values are HTML-escaped in the HTML part; subjects and text are plain. A missing
 * variable is a programming error and throws (it is not a delivery failure).
 */
export function renderTemplate(template: EmailTemplate, variables: Record<string, string>): RenderedEmail {
  for (const name of ["projectDisplayName", ...template.variables]) {
    if (typeof variables[name] !== "string") throw new Error(`Email template ${template.id} needs the variable ${name}`);
  }
  const values: Record<string, string> = {
    ...variables,
    userGreeting: variables.userDisplayName ? `, ${variables.userDisplayName}` : "",
  };
  const fill = (source: string, escape: (s: string) => string) =>
    source.replace(/\{\{(\w+)\}\}/g, (_, name: string) => escape(values[name] ?? ""));
  const plain = (s: string) => s;
  return {
    // Header values never carry line breaks (nodemailer would fold them; a display name must not add headers).
    subject: fill(template.subject, (s) => s.replace(/[\r\n]+/g, " ")),
    text: fill(template.text, plain),
    html: fill(template.html, escapeHtml),
    link: values[template.linkVariable]!,
    code: template.codeVariable ? values[template.codeVariable] : undefined,
  };
}

/** `<callbackUrl>?code=<code>`, appended with `&` when the URL already has a query; any fragment stays last. */
export function codeLink(callbackUrl: string, code: string): string {
  const hashAt = callbackUrl.indexOf("#");
  const base = hashAt === -1 ? callbackUrl : callbackUrl.slice(0, hashAt);
  const fragment = hashAt === -1 ? "" : callbackUrl.slice(hashAt);
  const separator = !base.includes("?") ? "?" : base.endsWith("?") || base.endsWith("&") ? "" : "&";
  return `${base}${separator}code=${encodeURIComponent(code)}${fragment}`;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}

/** Mail whose subject and HTML body the caller wrote (`POST /emails/send-email` with `html`). */
export interface ContentEmail {
  subject: string;
  html: string;
  /** Present for mail of a category the user may turn off: a footer link that does so without signing in. */
  unsubscribeLink?: string;
}

/**
 * Renders caller-written mail: the HTML as given (it comes from the project's secret-key holder, like a
 * template would), with the unsubscribe footer the protocol's default theme adds, and a text part
 * derived from the HTML so text-only mail clients get the words and links too.
 */
export function renderContentEmail(email: ContentEmail): RenderedEmail {
  const link = email.unsubscribeLink;
  const footerHtml = link
    ? `<p style="font-size:12px;color:#474849;text-align:center;margin:0;padding:16px 24px"><a href="${escapeHtml(link)}">Click here</a> to unsubscribe from these emails</p>`
    : "";
  const closing = email.html.search(/<\/body\s*>/i);
  const html =
    closing === -1
      ? `<!doctype html><html><body style="margin:0;padding:32px 0;background:#ffffff;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#242424">\n<div style="max-width:600px;margin:0 auto">${email.html}</div>\n${footerHtml}\n</body></html>`
      : email.html.slice(0, closing) + footerHtml + email.html.slice(closing);
  const text = htmlToText(email.html) + (link ? `\n\nTo unsubscribe from these emails, open this link:\n${link}\n` : "\n");
  return { subject: email.subject.replace(/[\r\n]+/g, " "), text, html, link: link ?? "", code: undefined };
}

/**
 * A readable plain-text version of an HTML body: block ends become line breaks, links keep their target
 * (`words (https://…)`), other tags go, and the common entities are decoded. One pass over the tokens,
 * so its time stays linear whatever the markup (no backtracking regular expressions over the body).
 */
export function htmlToText(html: string): string {
  const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };
  const hidden = new Set(["head", "style", "script", "title"]);
  const blockEnds = new Set(["p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "tr", "table", "section", "blockquote"]);
  let out = "";
  let hiddenDepth = 0;
  const links: { href: string; start: number }[] = [];
  for (const [token] of html.matchAll(/<[^<>]*>|[^<]+|</g)) {
    const tag = /^<(\/?)([a-zA-Z][a-zA-Z0-9]*)/.exec(token);
    if (!tag) {
      if (hiddenDepth === 0) out += token;
      continue;
    }
    const closing = tag[1] === "/";
    const name = tag[2]!.toLowerCase();
    if (hidden.has(name)) hiddenDepth = Math.max(0, hiddenDepth + (closing ? -1 : token.endsWith("/>") ? 0 : 1));
    if (hiddenDepth > 0) continue;
    if (name === "br") out += "\n";
    else if (closing && blockEnds.has(name)) out += "\n";
    else if (name === "a" && !closing) {
      const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(token);
      links.push({ href: href ? (href[1] ?? href[2] ?? "") : "", start: out.length });
    } else if (name === "a" && closing) {
      const link = links.pop();
      if (link?.href) {
        const words = out.slice(link.start).trim();
        out = words && words !== link.href ? `${out} (${link.href})` : out.slice(0, link.start) + link.href;
      }
    }
  }
  return out
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => entities[name]!)
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
