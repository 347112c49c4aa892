import { createHash, timingSafeEqual } from "node:crypto";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import { defineRoute } from "../http/route.js";
import { runFailedEmailsDigest } from "../services/failed-emails-digest.js";

// Latchkey's operations route, not a client's: its shapes live here rather than in the protocol package.
const digestQuery = z.strictObject({ dry_run: z.enum(["true", "false"]).optional() });
const digestResponse = z.strictObject({
  success: z.literal(true),
  digests: z.array(
    z.strictObject({
      project_id: z.string(),
      failed_emails: z.number().int(),
      recipients: z.array(z.string()),
    }),
  ),
});

/**
 * `POST /internal/failed-emails-digest`: mails each project's admins the sends that failed since the last digest,
 * for an outside scheduler holding `Authorization: Bearer <LATCHKEY_CRON_SECRET>`. With `dry_run=true` it only
 * says what it would send. The server also runs the digest once a day by itself (services/failed-emails-digest.ts).
 */
export const internalFailedEmailsDigestRoutes = [
  defineRoute({
    method: "post",
    path: "/internal/failed-emails-digest",
    summary: "Mail each project's admins the emails that failed since the last digest",
    description:
      "For a scheduler: needs `Authorization: Bearer <LATCHKEY_CRON_SECRET>` (refused while that is unset). Lists per project how many sends " +
      "failed and which admins were mailed; `dry_run=true` sends nothing and leaves the next digest's span as it is.",
    tags: ["Emails"],
    access: "public",
    request: { query: digestQuery },
    response: { description: "The projects whose admins were (or would be) mailed.", schema: digestResponse },
    handler: async (c, { query }) => {
      const { env } = c.get("deps");
      if (!isCronSecret(c.req.header("authorization"), env.cronSecret)) throw new HTTPException(401, { message: "Unauthorized" });
      const digests = await runFailedEmailsDigest(c.get("deps"), { dryRun: query.dry_run === "true" });
      return {
        success: true as const,
        digests: digests.map((d) => ({ project_id: d.projectId, failed_emails: d.failedEmails, recipients: d.recipients })),
      };
    },
  }),
];

// Digests compared, so the time taken says nothing about where a wrong token differs or how long the secret is.
function isCronSecret(authorization: string | undefined, secret: string | undefined): boolean {
  const presented = /^Bearer (.+)$/i.exec(authorization ?? "")?.[1];
  if (!secret || presented === undefined) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(presented), digest(secret));
}
