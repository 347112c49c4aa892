import { createHash, timingSafeEqual } from "node:crypto";
import { HTTPException } from "hono/http-exception";
import { KnownErrors } from "@latchkey/protocol/errors";
import { z } from "zod";
import { defineRoute } from "../http/route.js";
import { runFailedEmailsDigest } from "../services/failed-emails-digest.js";

// Latchkey's operations route, not a client's: its shapes live here rather than in the protocol package.
const digestQuery = z.strictObject({ dry_run: z.enum(["true", "false"]).optional() });
const digestResponse = z.strictObject({
  success: z.boolean(),
  failed_emails_by_tenancy: z.array(
    z.strictObject({
      emails: z.array(z.strictObject({ subject: z.string(), to: z.array(z.string()) })),
      tenant_owner_emails: z.array(z.string()),
      project_id: z.string(),
      tenancy_id: z.string(),
    }),
  ),
});

/**
 * `POST /internal/failed-emails-digest`: mails each project's owners the sends that failed in the last 24 hours,
 * for an outside scheduler holding `Authorization: Bearer <LATCHKEY_CRON_SECRET>`, answered as the reference
 * answers it. With `dry_run=true` it only says what it would send. Without a scheduler (no secret set) the
 * server runs the digest once a day by itself (services/failed-emails-digest.ts).
 */
export const internalFailedEmailsDigestRoutes = [
  defineRoute({
    method: "post",
    path: "/internal/failed-emails-digest",
    summary: "Mail each project's owners the emails that failed in the last 24 hours",
    description:
      "For a scheduler: needs `Authorization: Bearer <LATCHKEY_CRON_SECRET>` (400 without the header; 401 for a wrong one, and for everyone " +
      "while the secret is unset). Lists per project the sends that failed and the owners mailed; answers 500 with `success: false` when " +
      "a digest mail could not be sent. `dry_run=true` sends nothing.",
    tags: ["Emails"],
    access: "public",
    request: { query: digestQuery },
    response: { description: "The projects with failed sends.", schema: digestResponse },
    handler: async (c, { query }) => {
      const authorization = c.req.header("authorization");
      // The reference's request schema requires the header: a missing one is a validation error, not a 401.
      if (authorization === undefined) {
        throw new KnownErrors.SchemaError(`Request validation failed on ${c.req.method} ${new URL(c.req.url).pathname}:\n  - headers.authorization must be defined`);
      }
      if (!isCronSecret(authorization, c.get("deps").env.cronSecret)) throw new HTTPException(401, { message: "Unauthorized" });
      const run = await runFailedEmailsDigest(c.get("deps"), { dryRun: query.dry_run === "true" });
      return c.json(run, run.success ? 200 : 500);
    },
  }),
];

// Digests compared, so the time taken says nothing about where a wrong token differs or how long the secret is.
function isCronSecret(authorization: string, secret: string | undefined): boolean {
  const presented = /^Bearer (.+)$/i.exec(authorization)?.[1];
  if (!secret || presented === undefined) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(presented), digest(secret));
}
