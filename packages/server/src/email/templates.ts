/**
 * The auth flows' mails: which template of the protocol each is (its TSX source is the project's, see
 * services/transactional-email.ts), the variables its sender supplies (`userDisplayName` is optional), and which
 * of them hold the link and the code that the dev outbox shows.
 */

export type TemplateId = "email_verification" | "password_reset" | "magic_link" | "team_invitation" | "sign_in_invitation";

export interface EmailTemplate {
  id: TemplateId;
  /** The id the protocol gives this default template (what `/internal/email-templates` will list). */
  protocolTemplateId: string;
  displayName: string;
  /** Variables the caller must supply (the template's `variables` prop). */
  variables: readonly string[];
  /** Variables the caller may leave out (Latchkey's additions to the protocol's template). */
  optionalVariables?: readonly string[];
  /** The variable holding the link the mail is about (shown in the outbox log line and page). */
  linkVariable: string;
  /** The variable holding a code typed by hand, when the mail has one. */
  codeVariable?: string;
}

export const DEFAULT_EMAIL_TEMPLATES: Readonly<Record<TemplateId, EmailTemplate>> = {
  email_verification: {
    id: "email_verification",
    protocolTemplateId: "e7d009ce-8d47-4528-b245-5bf119f2ffa3",
    displayName: "Email Verification",
    variables: ["emailVerificationLink"],
    linkVariable: "emailVerificationLink",
  },
  password_reset: {
    id: "password_reset",
    protocolTemplateId: "a70fb3a4-56c1-4e42-af25-49d25603abd0",
    displayName: "Password Reset",
    variables: ["passwordResetLink"],
    linkVariable: "passwordResetLink",
  },
  magic_link: {
    id: "magic_link",
    protocolTemplateId: "822687fe-8d0a-4467-a0d1-416b6e639478",
    displayName: "Magic Link/OTP",
    variables: ["magicLink", "otp"],
    linkVariable: "magicLink",
    codeVariable: "otp",
  },
  team_invitation: {
    id: "team_invitation",
    protocolTemplateId: "e84de395-2076-4831-9c19-8e9a96a868e4",
    displayName: "Team Invitation",
    variables: ["teamDisplayName", "teamInvitationLink"],
    optionalVariables: ["inviterDisplayName"],
    linkVariable: "teamInvitationLink",
  },
  sign_in_invitation: {
    id: "sign_in_invitation",
    protocolTemplateId: "066dd73c-36da-4fd0-b6d6-ebf87683f8bc",
    displayName: "Sign In Invitation",
    variables: ["signInInvitationLink"],
    linkVariable: "signInInvitationLink",
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
