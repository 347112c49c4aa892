import { adminProjectConfigUpdate, handlerPath, trustedDomainError } from "@latchkey/protocol/schemas";
import { z } from "zod";
import type { LegacyConfig } from "./project-config-queries.js";

export type TrustedDomain = LegacyConfig["domains"][number];

/** A handler path, checked with the protocol's rule (SPEC §5); the server has the last word on the rest (e.g. its length). */
const handlerPathField = z
  .string()
  .trim()
  .refine((value) => handlerPath.safeParse(value).success, { message: "The handler path must start with /, e.g. /handler." });

/** The add form, checked with the protocol's rules for trusted domains and handler paths (SPEC §5). */
export const domainForm = z.object({
  domain: z
    .string()
    .trim()
    .min(1, "Enter the URL of your app, e.g. https://app.example.com.")
    .superRefine((value, ctx) => {
      const reason = trustedDomainError(value);
      if (reason) ctx.addIssue({ code: "custom", message: `The URL ${reason}.` });
    }),
  handlerPath: handlerPathField,
});

/** A trusted domain's new handler path, edited in place. */
export const handlerPathForm = z.object({ handlerPath: handlerPathField });

/** The whole list as the update body (the list is saved whole), or the protocol's complaint about it. */
export function domainsUpdate(domains: TrustedDomain[]): { body: Record<string, unknown> } | { error: string } {
  const body = adminProjectConfigUpdate.safeParse({ domains });
  return body.success ? { body: body.data } : { error: body.error.issues.map((issue) => issue.message).join(" ") };
}
