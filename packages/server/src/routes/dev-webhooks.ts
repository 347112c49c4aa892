import { Hono } from "hono";
import { escapeHtml } from "../email/templates.js";
import type { AppEnv } from "../http/context.js";
import { payloadForEndpoint } from "../services/webhook-payload-versions.js";

const PAGE_SIZE = 50;

/**
 * `GET /dev/webhooks` (dev mode only, outside /api/v1): the newest webhook deliveries (services/webhook-delivery.ts)
 * with their event, endpoint, state, attempts and the endpoint's last answer, like /dev/outbox for mail.
 * `?project=<id>` filters.
 */
export function devWebhooksRoutes() {
  return new Hono<AppEnv>().get("/dev/webhooks", async (c) => {
    const { db, env } = c.get("deps");
    if (!env.devMode) return c.notFound();
    const projectId = c.req.query("project");
    let query = db
      .selectFrom("webhook_deliveries as d")
      .innerJoin("webhook_messages as m", "m.id", "d.message_id")
      .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
      .innerJoin("projects as p", "p.id", "m.project_id")
      .select([
        "d.message_id",
        "d.status",
        "d.attempts",
        "d.next_attempt_at",
        "d.last_response_status",
        "d.last_response_body",
        "d.created_at",
        "m.event_type",
        // What this endpoint is sent: the shapes of the protocol version it asks for.
        payloadForEndpoint("m", "e").as("payload"),
        "e.url",
        "p.display_name as project",
      ]);
    if (projectId) query = query.where("m.project_id", "=", projectId);
    const rows = await query.orderBy("d.created_at", "desc").orderBy("d.message_id", "desc").limit(PAGE_SIZE).execute();
    c.header("cache-control", "no-store");
    c.header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'");
    return c.html(page(rows, projectId));
  });
}

interface DeliveryRow {
  message_id: string;
  status: string;
  attempts: number;
  next_attempt_at: Date | null;
  last_response_status: number | null;
  last_response_body: string | null;
  created_at: Date;
  event_type: string;
  payload: unknown;
  url: string;
  project: string;
}

function page(rows: DeliveryRow[], projectId: string | undefined): string {
  const items = rows.map((row) => {
    const payload = typeof row.payload === "string" ? row.payload : JSON.stringify(row.payload, null, 2);
    const answer = row.attempts === 0 ? "not attempted yet" : `last answer ${row.last_response_status ?? "none"}${row.last_response_body ? `: ${row.last_response_body}` : ""}`;
    const next = row.status === "pending" && row.next_attempt_at ? ` · next attempt <time datetime="${row.next_attempt_at.toISOString()}">${row.next_attempt_at.toISOString()}</time>` : "";
    return `<article>
<h2>${escapeHtml(row.event_type)} <span class="status ${escapeHtml(row.status)}">${escapeHtml(row.status)}</span></h2>
<p class="meta">${escapeHtml(row.project)} · to <b>${escapeHtml(row.url)}</b> · ${escapeHtml(row.message_id)} · <time datetime="${row.created_at.toISOString()}">${row.created_at.toISOString()}</time></p>
<p class="meta">${row.attempts} attempt${row.attempts === 1 ? "" : "s"}, ${escapeHtml(answer)}${next}</p>
<details><summary>Payload</summary><pre>${escapeHtml(payload)}</pre></details>
</article>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Dev webhooks · Latchkey</title>
<style>body{font-family:system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#222}article{border:1px solid #ddd;border-radius:6px;padding:0 1rem;margin:1rem 0}.meta{color:#666;font-size:.9rem;word-break:break-all}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}.status{font-size:.8rem;border-radius:4px;padding:.1rem .4rem;background:#eee}.succeeded{background:#d7f5dd}.failed{background:#fadbd8}</style>
</head><body>
<h1>Dev webhooks</h1>
<p>Webhook deliveries, newest first${projectId ? `, of project ${escapeHtml(projectId)}` : ""}. Reload to see new ones.</p>
${items.length === 0 ? "<p>No deliveries yet: add an endpoint (POST /api/v1/webhooks/svix-token, then the svix client).</p>" : items.join("\n")}
</body></html>`;
}
