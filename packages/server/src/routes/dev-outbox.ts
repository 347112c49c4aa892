import { Hono } from "hono";
import { escapeHtml } from "../email/templates.js";
import type { AppEnv } from "../http/context.js";

const PAGE_SIZE = 50;

/**
 * `GET /dev/outbox` (dev mode only, outside /api/v1): the newest mail kept in the dev outbox, with its
 * links and codes, so a sign-up can be finished without a mail server. `?to=<address>` filters. Each mail
 * shows as its recipient would see it (its HTML in a sandboxed frame: no scripts, no access to this page,
 * its links open in a new tab) and as plain text.
 */
export function devOutboxRoutes() {
  return new Hono<AppEnv>().get("/dev/outbox", async (c) => {
    const { db, env } = c.get("deps");
    if (!env.devMode) return c.notFound();
    const to = c.req.query("to");
    let query = db
      .selectFrom("sent_emails")
      .innerJoin("projects", "projects.id", "sent_emails.project_id")
      .select(["sent_emails.id", "sent_emails.recipient", "sent_emails.subject", "sent_emails.text", "sent_emails.html", "sent_emails.sent_at", "projects.display_name as project"])
      .where("sent_emails.delivery", "=", "outbox");
    if (to) query = query.where("sent_emails.recipient", "=", to);
    const rows = await query.orderBy("sent_emails.sent_at", "desc").orderBy("sent_emails.id", "desc").limit(PAGE_SIZE).execute();
    c.header("cache-control", "no-store");
    // The frames' documents (srcdoc) keep this policy: a mail's own styles and its images, no scripts.
    c.header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data: http: https:");
    return c.html(page(rows, to));
  });
}

interface OutboxRow {
  id: string;
  recipient: string;
  subject: string;
  text: string | null;
  html: string | null;
  sent_at: Date;
  project: string;
}

function page(rows: OutboxRow[], to: string | undefined): string {
  const items = rows.map((row) => {
    const links = [...new Set((row.text ?? "").match(/https?:\/\/[^\s<>"]+/g) ?? [])];
    return `<article>
<h2>${escapeHtml(row.subject)}</h2>
<p class="meta">To <b>${escapeHtml(row.recipient)}</b> · ${escapeHtml(row.project)} · <time datetime="${row.sent_at.toISOString()}">${row.sent_at.toISOString()}</time></p>
${links.map((link) => `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`).join("\n")}
${row.html ? htmlFrame(row.subject, row.html) : ""}
<details${row.html ? "" : " open"}><summary>Text</summary><pre>${escapeHtml(row.text ?? "")}</pre></details>
</article>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Dev outbox · Latchkey</title>
<style>body{font-family:system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#222}article{border:1px solid #ddd;border-radius:6px;padding:0 1rem;margin:1rem 0}.meta{color:#666;font-size:.9rem}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}a{word-break:break-all}iframe{display:block;width:100%;height:28rem;border:1px solid #ddd;border-radius:4px;background:#fff;margin:.5rem 0}summary{cursor:pointer;margin:.5rem 0}</style>
</head><body>
<h1>Dev outbox</h1>
<p>Mail Latchkey would have sent; no SMTP server is configured. Newest first${to ? `, to ${escapeHtml(to)}` : ""}. Reload to see new mail.</p>
${items.length === 0 ? "<p>No mail yet.</p>" : items.join("\n")}
</body></html>`;
}

/**
 * The mail's HTML in a frame with every sandbox restriction but opening links in a new, unsandboxed tab (a
 * base target makes every link do that), so a verification link clicked in the mail works as in a mail client.
 */
function htmlFrame(subject: string, html: string): string {
  const base = '<base target="_blank">';
  const document = /<head(\s[^>]*)?>/i.test(html) ? html.replace(/<head(\s[^>]*)?>/i, (head) => head + base) : base + html;
  return `<iframe title="${escapeHtml(`HTML of “${subject}”`)}" sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(document)}"></iframe>`;
}
