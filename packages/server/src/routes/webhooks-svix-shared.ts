import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../http/context.js";
import { verifySvixToken } from "../crypto/svix-tokens.js";

/** What the Svix-compatible API's route files (webhooks-svix*.ts) share: Svix's error shape, its token check, its validation answer. */

export type SvixContext = Context<AppEnv>;

export const svixError = (c: SvixContext, status: 401 | 404 | 409 | 422, code: string, detail: unknown) => c.json({ code, detail }, status);
export const notFound = (c: SvixContext) => svixError(c, 404, "not_found", "Entity not found");

/**
 * The project the bearer token names, when it names the app in the path (routes without an app in the path,
 * such as the event types, only need a valid token); otherwise the error answer.
 */
export function authorisedProject(c: SvixContext): { projectId: string } | { error: Response } {
  const header = c.req.header("authorization") ?? "";
  const token = /^Bearer (.+)$/i.exec(header)?.[1]?.trim();
  const { env } = c.get("deps");
  const projectId = token ? verifySvixToken([env.serverSecret, ...env.previousServerSecrets], token) : undefined;
  if (!projectId) return { error: svixError(c, 401, "authentication_failed", "Invalid or expired token; get one from POST /api/v1/webhooks/svix-token.") };
  const app = c.req.param("app_id");
  if (app !== undefined && app !== projectId) return { error: notFound(c) };
  return { projectId };
}

export function parsed<T extends z.ZodType>(c: SvixContext, schema: T, value: unknown): { data: z.infer<T> } | { error: Response } {
  const result = schema.safeParse(value ?? {});
  if (result.success) return { data: result.data };
  return {
    error: svixError(
      c,
      422,
      "validation",
      result.error.issues.map((issue) => ({ loc: ["body", ...issue.path.map(String)], msg: issue.message, type: issue.code })),
    ),
  };
}

/** Svix's paging query: `limit` (1–250, 50 by default) and the `iterator` a previous page ended with. */
export const pageFields = { limit: z.coerce.number().int().min(1).max(250).default(50), iterator: z.string().max(256).optional() };

/** The filters of Svix's message lists: event types (comma-separated), a time window, and whether payloads come along. */
export const messageFilterFields = {
  event_types: z
    .string()
    .transform((value) => value.split(",").filter(Boolean))
    .optional(),
  before: z.coerce.date().optional(),
  after: z.coerce.date().optional(),
  with_content: z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .default(true),
};
