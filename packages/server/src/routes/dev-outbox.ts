import { Hono } from "hono";
import { escapeHtml } from "../email/templates.js";
import type { AppEnv } from "../http/context.js";

const PAGE_SIZE = 50;

/**
 * `GET /dev/outbox` (dev mode only, outside /api/v1): the newest mail kept in the dev outbox, with its
 * links and codes, so a sign-up can be finished without a mail server. `?to=<address>` filters.
 */
export function devOutboxRoutes() {
  return new Hono<AppEnv>().get("/dev/outbox", async (c) => {
    const { db, env } = c.get("deps");
    if (!env.devMode) return c.notFound();
    const to = c.req.query("to");
    let query = db
      .selectFrom("sent_emails")
      .innerJoin("projects", "projects.id", "sent_emails.project_id")
      .select(["sent_emails.id", "sent_emails.recipient", "sent_emails.subject", "sent_emails.text", "sent_emails.sent_at", "projects.display_name as project"])
      .where("sent_emails.delivery", "=", "outbox");
    if (to) query = query.where("sent_emails.recipient", "=", to);
    const rows = await query.orderBy("sent_emails.sent_at", "desc").orderBy("sent_emails.id", "desc").limit(PAGE_SIZE).execute();
    c.header("cache-control", "no-store");
    c.header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'");
    return c.html(page(rows, to));
  });
}

interface OutboxRow {
  id: string;
  recipient: string;
  subject: string;
  text: string | null;
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
<details><summary>Text</summary><pre>${escapeHtml(row.text ?? "")}</pre></details>
</article>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Dev outbox · Latchkey</title>
<style>body{font-family:system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#222}article{border:1px solid #ddd;border-radius:6px;padding:0 1rem;margin:1rem 0}.meta{color:#666;font-size:.9rem}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}a{word-break:break-all}</style>
</head><body>
<h1>Dev outbox</h1>
<p>Mail Latchkey would have sent; no SMTP server is configured. Newest first${to ? `, to ${escapeHtml(to)}` : ""}. Reload to see new mail.</p>
${items.length === 0 ? "<p>No mail yet.</p>" : items.join("\n")}
</body></html>`;
}
