import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import { KnownErrors } from "@latchkey/protocol/errors";
import {
  notificationPreferenceListParams,
  notificationPreferenceListResponse,
  notificationPreferenceParams,
  notificationPreferenceRead,
  notificationPreferenceUpdateBody,
  unsubscribeLinkQuery,
} from "@latchkey/protocol/schemas";
import type { AppEnv, RequestAuth } from "../http/context.js";
import { ANY_ACCESS, defineRoute } from "../http/route.js";
import {
  categoryById,
  listNotificationPreferences,
  setNotificationPreference,
  unsubscribeWithCode,
} from "../services/notification-preferences.js";

const TAGS = ["Emails"];
const UNSUBSCRIBED = "Successfully unsubscribed from notification group";

/**
 * Notification preferences (SPEC.md §3 "Notification category", §7 Emails):
 * - `GET /emails/notification-preference/{user_id}` — every category with the user's choice;
 * - `PATCH /emails/notification-preference/{user_id}/{notification_category_id}` `{enabled}`;
 * - `GET|POST /emails/unsubscribe-link?code=` — the link in non-transactional mail, no sign-in needed
 *   (POST is the one-click unsubscribe mail clients send for `List-Unsubscribe-Post`, RFC 8058).
 * `user_id` is `me` or a UUID; a client reaches only its own user. `POST /emails/send-email` is in send-email.ts.
 */
export const notificationPreferencesRoutes = [
  defineRoute({
    method: "get",
    path: "/emails/notification-preference/:user_id",
    summary: "List a user's notification preferences",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: notificationPreferenceListParams },
    response: { description: "Every notification category with the user's choice.", schema: notificationPreferenceListResponse },
    errors: [KnownErrors.UserAuthenticationRequired, KnownErrors.UserIdDoesNotExist],
    handler: async (c, { auth, params }) => {
      const userId = await addressedUser(c, auth, params.user_id, "You can only view your own notification preferences");
      const items = await listNotificationPreferences(c.get("deps").db, auth.project.id, userId);
      return { items, is_paginated: false } as const;
    },
  }),
  defineRoute({
    method: "patch",
    path: "/emails/notification-preference/:user_id/:notification_category_id",
    summary: "Turn a notification category on or off for a user",
    description: "Categories with `can_disable: false` (Transactional) cannot be turned off.",
    tags: TAGS,
    access: ANY_ACCESS,
    request: { params: notificationPreferenceParams, body: notificationPreferenceUpdateBody },
    response: { description: "The category with the user's new choice.", schema: notificationPreferenceRead },
    errors: [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserAuthenticationRequired, KnownErrors.UserIdDoesNotExist],
    handler: async (c, { auth, params, body }) => {
      // As the reference: `me` without a signed-in user is refused before the category is looked up.
      if (params.user_id === "me" && !auth.user) throw new KnownErrors.CannotGetOwnUserWithoutUser();
      const category = categoryById(params.notification_category_id);
      if (!category) throw new HTTPException(404, { message: "Notification category not found" });
      const userId = await addressedUser(c, auth, params.user_id, "You can only manage your own notification preferences");
      if (!category.canDisable && !body.enabled) {
        // The protocol has no known error for this; its categories say `can_disable: false` up front.
        throw new HTTPException(400, { message: `The notification category ${category.name} cannot be disabled.` });
      }
      const saved = await setNotificationPreference(c.get("deps").db, { projectId: auth.project.id, userId, category, enabled: body.enabled });
      if (!saved) throw new KnownErrors.UserIdDoesNotExist(userId);
      return saved;
    },
  }),
  ...(["get", "post"] as const).map((method) =>
    defineRoute({
      method,
      path: "/emails/unsubscribe-link",
      summary: method === "get" ? "Follow an unsubscribe link" : "Unsubscribe in one click (RFC 8058)",
      description: "Turns the link's notification category off for its user. Needs no sign-in; the link may be followed any number of times.",
      tags: TAGS,
      access: "public",
      request: { query: unsubscribeLinkQuery },
      response: { description: "A text confirmation.", schema: z.string(), contentType: "text/plain" },
      errors: [KnownErrors.SchemaError, KnownErrors.VerificationCodeNotFound, KnownErrors.VerificationCodeExpired, KnownErrors.VerificationCodeMaxAttemptsReached],
      handler: async (c, { query }) => {
        await unsubscribeWithCode(c.get("deps").db, query.code);
        return c.text(UNSUBSCRIBED, 200);
      },
    }),
  ),
];

/**
 * The user a preference path names: `me` is the signed-in user (USER_AUTHENTICATION_REQUIRED without
 * one); a client may name only itself (403, as the protocol answers); a server's user must exist.
 */
async function addressedUser(c: Context<AppEnv>, auth: RequestAuth, named: string, forbidden: string): Promise<string> {
  if (named === "me") {
    if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
    return auth.user.id;
  }
  const userId = named.toLowerCase();
  if (auth.type === "client") {
    if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
    if (auth.user.id !== userId) throw new HTTPException(403, { message: forbidden });
    return userId;
  }
  const exists = await c
    .get("deps")
    .db.selectFrom("users")
    .select("id")
    .where("project_id", "=", auth.project.id)
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!exists) throw new KnownErrors.UserIdDoesNotExist(userId);
  return userId;
}
